package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CacheListing;
import io.joblib4j.CacheStats;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.testing.Rendezvous;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bytes limit with 2 JVMs x 8 threads writing and reading one location at once, beside busy threads
 * that keep every core overloaded (twice as many as there are cores): every call returns the right
 * value (a reader whose entry another JVM pruned recomputes it), pruning keeps up (far more is stored
 * than the limit allows), and the cache ends within the bound the limit promises
 * ({@code Memory.Builder.bytesLimit}: with N JVMs storing, N times the limit once every store has
 * returned), however the scheduler treats the pruning threads.
 */
class LimitsUnderConcurrentWritersTest {
  static final long LIMIT = 300_000;
  static final int KEYS = 240;
  static final int CALLS_PER_THREAD = 60;

  @TempDir Path dir;

  /** About 8 KB stored per key; its values say which key made them. */
  public static long[] block(int key) {
    long[] out = new long[1000];
    java.util.Arrays.fill(out, key);
    return out;
  }

  @Test
  void twoJvmsOfEightThreadsWritingOnAnOverloadedMachineStayWithinTwiceTheLimitAndEveryCallGetsItsValue() throws Exception {
    Path cache = dir.resolve("cache");
    try (CpuBurners busy = CpuBurners.start(CpuBurners.twicePerCore(), Duration.ofMinutes(4));
        Rendezvous r = Rendezvous.open()) {
      Rendezvous.Gate gate = r.gate("start");
      List<Process> jvms = new ArrayList<>();
      for (int j = 0; j < 2; j++) {
        jvms.add(MemoryReliabilityTest.childJvm(Writer.class, cache.toString(), Integer.toString(j), gate.host(),
            Integer.toString(gate.port())));
      }
      r.awaitArrivals("start", 2);
      r.openGate("start");
      long stores = 0;
      long hits = 0;
      for (Process p : jvms) {
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines().filter(l -> l.startsWith("WARNING"))).as(out).isEmpty();
        String[] s = out.lines().filter(l -> l.startsWith("STATS ")).findFirst().orElseThrow(() -> new AssertionError(out))
            .substring(6).split(" ");
        stores += Long.parseLong(s[0]);
        hits += Long.parseLong(s[1]);
      }
      CacheListing left = Memory.builder(cache).verbose(0).build().entries();
      long entryBytes = left.totalBytes() / Math.max(1, left.size());
      System.out.println("2 JVMs x 8 threads under a " + LIMIT + "-byte limit: " + stores + " stores, " + hits
          + " hits, " + left.size() + " entries of " + left.totalBytes() + " bytes left");
      assertThat(stores * entryBytes).as("bytes stored in all").isGreaterThan(5 * LIMIT);
      // the promise: each JVM's stores since its last listing stay within the limit once its stores
      // have returned; what the other stored since its own last listing can come on top, never more
      assertThat(left.totalBytes()).as("the cache after both JVMs' last stores").isLessThanOrEqualTo(2 * LIMIT);
    }
  }

  /** One child JVM: 8 threads calling keys in an order of their own, with the limit set. */
  public static final class Writer {
    public static void main(String[] args) throws Exception {
      io.joblib4j.spi.support.Warnings.addHook((src, m) -> System.out.println("WARNING " + m));
      Memory memory = Memory.builder(Path.of(args[0])).verbose(0).bytesLimit(LIMIT).build();
      MemoizedFn1<Integer, long[]> f = memory.cache(LimitsUnderConcurrentWritersTest::block);
      int jvm = Integer.parseInt(args[1]);
      Rendezvous.Gate gate = new Rendezvous.Gate(args[2], Integer.parseInt(args[3]), "start");
      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch ready = new CountDownLatch(8);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          ready.countDown();
          go.await();
          for (int i = 0; i < CALLS_PER_THREAD; i++) {
            // a new key, then one a little older (often pruned meanwhile, by this JVM or the other)
            int key = ((jvm * 8 + thread) * 31 + i * 7) % KEYS;
            int again = (key + KEYS - 5) % KEYS;
            for (int k : new int[] {key, again}) {
              long[] v = f.apply(k);
              if (v.length != 1000 || v[0] != k || v[999] != k) {
                throw new AssertionError("wrong value for key " + k);
              }
            }
          }
          return null;
        }));
      }
      ready.await();
      gate.arrive();
      gate.pass();
      go.countDown();
      for (Future<?> d : done) {
        d.get();
      }
      pool.shutdown();
      CacheStats s = memory.stats();
      System.out.println("STATS " + s.stores() + " " + s.hits());
    }
  }
}
