package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.hdfs.HadoopStores;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory on a NameNode and two DataNodes running as their own processes, as on a cluster: the
 * NameNode is frozen (SIGSTOP: it accepts connections and answers nothing), thawed, and finally
 * killed in the middle of a write. Memoized calls always return their values; only the first call
 * after the NameNode froze waits, for one RPC timeout, and every later one fails over to computing at
 * once, until the backoff has passed and the NameNode answers again.
 */
@Timeout(180)
class NameNodeOutageIT {
  private static final AtomicInteger COMPUTED = new AtomicInteger();
  private static final String RPC_TIMEOUT_MILLIS = "3000";
  @TempDir Path localCache;

  public static long square(int x) {
    COMPUTED.incrementAndGet();
    return (long) x * x;
  }

  private Map<String, Object> options() {
    return Map.of("localCacheDir", localCache.toString(), "outageBackoff", "4s",
        "hadoop.ipc.client.rpc-timeout.ms", RPC_TIMEOUT_MILLIS);
  }

  private MemoizedFn1<Integer, Long> memoized(HdfsDaemons hdfs, String path) {
    Memory.Builder b = Memory.builder(hdfs.uri(path).toString()).verbose(0);
    options().forEach(b::storeOption);
    return b.build().cache(NameNodeOutageIT::square);
  }

  /** Calls {@code f} on each argument, checking its value, and returns how long each call took. */
  private static List<Long> timedCalls(MemoizedFn1<Integer, Long> f, int from, int to) {
    List<Long> millis = new ArrayList<>();
    for (int i = from; i < to; i++) {
      long t0 = System.nanoTime();
      assertThat(f.apply(i)).isEqualTo((long) i * i);
      millis.add(Duration.ofNanos(System.nanoTime() - t0).toMillis());
    }
    return millis;
  }

  @Test
  void memoizedCallsGoOnThroughAFrozenAndAKilledNameNode() throws Exception {
    try (HdfsDaemons hdfs = HdfsDaemons.start(2)) {
      MemoizedFn1<Integer, Long> f = memoized(hdfs, "/cache");
      COMPUTED.set(0);
      timedCalls(f, 1, 2);
      timedCalls(f, 1, 2);
      assertThat(COMPUTED).hasValue(1); // stored, then a hit

      // ---- frozen: the first call waits one RPC timeout, the others fail over at once
      hdfs.freezeNameNode();
      List<Long> frozen = new ArrayList<>();
      List<String> warnings = Captured.warnings(() -> frozen.addAll(timedCalls(f, 2, 8)));
      IOException newStore = catchThrowableOfType(
          () -> HadoopStores.open(hdfs.uri("/elsewhere"), new Configuration(), options()), IOException.class);
      System.out.printf("frozen NameNode (rpc timeout %s ms): call times %s ms%n", RPC_TIMEOUT_MILLIS, frozen);
      assertThat(COMPUTED).hasValue(7);
      assertThat(warnings).hasSize(1).allMatch(w -> w.contains("cannot be used") && w.contains("SocketTimeoutException"));
      // a store opened for the frozen NameNode (a new Memory, the next task) does not wait again
      assertThat(newStore).hasMessageContaining("could not be reached");
      assertThat(frozen.subList(1, frozen.size())).allMatch(ms -> ms < Long.parseLong(RPC_TIMEOUT_MILLIS));

      // ---- thawed: once the backoff has passed, the cache is used again
      hdfs.thawNameNode();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (true) {
        int before = COMPUTED.get();
        f.apply(1);
        if (COMPUTED.get() == before) {
          break; // a hit: the store is back
        }
        assertThat(System.nanoTime() - deadline).as("the cache is used again after the NameNode thawed").isNegative();
        Thread.sleep(250); // the backoff is a clock: nothing to wait on
      }
      int before = COMPUTED.get();
      timedCalls(f, 2, 3);
      timedCalls(f, 2, 3);
      assertThat(COMPUTED).hasValue(before + 1); // stored again, then a hit

      // ---- killed in the middle of a write: the cause is reported, and calls go on computing
      try (Store store = HadoopStores.open(hdfs.uri("/direct"), new Configuration(), options())) {
        long t0 = System.nanoTime();
        IOException failed = catchThrowableOfType(() -> store.publish("f/k", List.of(new EntryFile("output", out -> {
          out.write(new byte[1 << 20]);
          out.flush();
          try {
            hdfs.killNameNode();
          } catch (InterruptedException e) {
            throw new java.io.InterruptedIOException();
          }
          out.write(1);
        }))), IOException.class);
        System.out.printf("killed NameNode: the write failed after %d ms with %s%n",
            Duration.ofNanos(System.nanoTime() - t0).toMillis(), failed);
        assertThat(failed).isNotNull();
        assertThat(Outage.unreachable(failed)).as("%s", failed).isTrue();
      }
      MemoizedFn1<Integer, Long> g = memoized(hdfs, "/cache-after-kill");
      List<Long> killed = new ArrayList<>();
      List<String> afterKill = Captured.warnings(() -> killed.addAll(timedCalls(g, 10, 16)));
      System.out.printf("killed NameNode: call times %s ms; warning: %s%n", killed, afterKill);
      assertThat(afterKill).hasSize(1).allMatch(w -> w.contains("cannot be used") && w.contains("could not be reached"));
    }
  }
}
