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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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

  /** How opening a store at {@code path} on {@code nn} fails. */
  private IOException openFailure(FakeNameNode nn, String path) {
    return catchThrowableOfType(() -> HadoopStoreOpener.open(nn.uri(path), new Configuration(), options()), IOException.class);
  }

  @ParameterizedTest
  @EnumSource(FakeNameNode.Behaviour.class)
  void aNameNodeFoundUnreachableIsNotContactedAgainByStoresOpenedDuringTheBackoff(FakeNameNode.Behaviour b)
      throws Exception {
    try (FakeNameNode nn = new FakeNameNode(b)) {
      IOException first = openFailure(nn, "/first");
      assertThat(first).isNotNull();
      assertThat(Outage.unreachable(first)).as("%s", first).isTrue();
      int contacted = nn.connections();
      assertThat(contacted).isPositive();
      for (String path : List.of("/second", "/third", "/first")) {
        assertThat(openFailure(nn, path)).hasMessageContaining("could not be reached")
            .hasMessageContaining(first.getClass().getName());
      }
      assertThat(nn.connections()).as("connections made during the backoff").isEqualTo(contacted);
    }
  }

  @Test
  void memoizedCallsWaitForANameNodeThatNeverAnswersOnceThenComputeAtOnceWithOneWarning() throws Exception {
    try (FakeNameNode nn = new FakeNameNode(FakeNameNode.Behaviour.SILENT)) {
      COMPUTED.set(0);
      Memory.Builder b = Memory.builder(nn.uri("/memory").toString()).verbose(0);
      options().forEach(b::storeOption);
      MemoizedFn1<Integer, Integer> f = b.build().cache(UnreachableNameNodeTest::twice);
      int[] contacted = new int[1];
      List<String> warnings = Captured.warnings(() -> {
        assertThat(f.apply(0)).isZero(); // waits one RPC timeout
        contacted[0] = nn.connections();
        for (int i = 1; i < 5; i++) {
          assertThat(f.apply(i)).isEqualTo(2 * i);
        }
      });
      assertThat(COMPUTED).hasValue(5);
      assertThat(warnings).hasSize(1).allMatch(w -> w.contains("cannot be used") && w.contains("SocketTimeoutException"));
      assertThat(nn.connections()).as("connections made during the backoff").isEqualTo(contacted[0]);
    }
  }
}
