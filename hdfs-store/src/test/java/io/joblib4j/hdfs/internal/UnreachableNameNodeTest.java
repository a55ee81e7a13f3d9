package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stores for a NameNode that is there but does not work: one that accepts connections and never
 * answers (frozen, as under SIGSTOP or a long GC pause) and one that resets them. The first call
 * finds out, and every store opened for that NameNode afterwards — a new Memory, the next task on
 * an executor — fails at once for the backoff, without contacting it.
 */
@Timeout(120)
class UnreachableNameNodeTest {
  private static final AtomicInteger COMPUTED = new AtomicInteger();
  @TempDir Path localCache;

  public static int twice(int x) {
    COMPUTED.incrementAndGet();
    return 2 * x;
  }

  private Map<String, Object> options() {
    return Map.of("localCacheDir", localCache.toString(), "outageBackoff", "10m",
        "hadoop.ipc.client.rpc-timeout.ms", "1000"); // one short wait for the first call
  }

  @Test
  void aNameNodeThatNeverAnswersIsWaitedForOnceThenNewStoresForItFailAtOnce() throws Exception {
    try (FakeNameNode nn = new FakeNameNode(FakeNameNode.Behaviour.SILENT)) {
      IOException first = catchThrowableOfType(
          () -> HadoopStoreOpener.open(nn.uri("/first"), new Configuration(), options()), IOException.class);
      assertThat(first).isNotNull();
      assertThat(Outage.unreachable(first)).as("%s", first).isTrue();
      int contacted = nn.connections();
      assertThat(contacted).isPositive();

      for (String path : List.of("/second", "/third", "/first")) {
        IOException again = catchThrowableOfType(
            () -> HadoopStoreOpener.open(nn.uri(path), new Configuration(), options()), IOException.class);
        assertThat(again).hasMessageContaining("could not be reached").hasMessageContaining("SocketTimeoutException");
      }
      COMPUTED.set(0);
      Memory memory = Memory.builder(nn.uri("/memory").toString()).verbose(0).storeOption("localCacheDir", localCache.toString())
          .storeOption("hadoop.ipc.client.rpc-timeout.ms", "1000").build();
      MemoizedFn1<Integer, Integer> f = memory.cache(UnreachableNameNodeTest::twice);
      List<String> warnings = Captured.warnings(() -> {
        for (int i = 0; i < 5; i++) {
          assertThat(f.apply(i)).isEqualTo(2 * i);
        }
      });
      assertThat(COMPUTED).hasValue(5);
      assertThat(warnings).hasSize(1).allMatch(w -> w.contains("cannot be used") && w.contains("could not be reached"));
      assertThat(nn.connections()).as("connections made to the NameNode during the backoff").isEqualTo(contacted);
    }
  }

  @Test
  void aConnectionResetCountsAsUnreachable() throws Exception {
    try (FakeNameNode nn = new FakeNameNode(FakeNameNode.Behaviour.RESET)) {
      IOException first = catchThrowableOfType(
          () -> HadoopStoreOpener.open(nn.uri("/first"), new Configuration(), options()), IOException.class);
      assertThat(first).isNotNull();
      assertThat(Outage.unreachable(first)).as("%s", first).isTrue();
      int contacted = nn.connections();
      IOException again = catchThrowableOfType(
          () -> HadoopStoreOpener.open(nn.uri("/second"), new Configuration(), options()), IOException.class);
      assertThat(again).hasMessageContaining("could not be reached");
      assertThat(nn.connections()).isEqualTo(contacted);
    }
  }
}
