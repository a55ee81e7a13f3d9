package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spi.upkeep.Lease;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheListing;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound a limit promises ({@code Memory.Builder.bytesLimit}: with N JVMs storing, at most N times
 * the limit, plus the entries whose stores are under way, one per storing thread) kept when the
 * pruner gets no CPU: paused mid-prune in this JVM, or holding the prune lock in another JVM while
 * this one stores and exits. Each scenario is made to happen, not waited for.
 */
class LimitKeeperUnderStarvationTest {
  static final long LIMIT = 100_000;
  static final int WRITERS = 4;
  static final int KEYS_PER_WRITER = 30;

  @TempDir Path dir;

  @AfterEach
  void unhook() {
    MemoryLimits.midPrune = location -> {};
    MemoryLimits.writerWaits = location -> {};
  }

  @Test
  void keepsTheBoundWhileItsOwnPrunerIsPausedMidPrune() throws Exception {
    Path cache = dir.resolve("cache");
    Memory memory = Memory.builder(cache).verbose(0).bytesLimit(LIMIT).build();
    MemoizedFn1<Integer, long[]> f = memory.cache(LimitsUnderConcurrentWritersTest::block);
    f.apply(-1); // this JVM's first listing, before the pause is armed
    String location = memory.location();
    CountDownLatch resume = new CountDownLatch(1);
    // every writer settles: it is the paused pruner, it waits for the pruner, or it has made all its calls
    Set<Thread> settledThreads = ConcurrentHashMap.newKeySet();
    CountDownLatch settled = new CountDownLatch(WRITERS);
    Runnable settle = () -> {
      if (settledThreads.add(Thread.currentThread())) {
        settled.countDown();
      }
    };
    AtomicBoolean paused = new AtomicBoolean();
    MemoryLimits.midPrune = l -> {
      if (l.equals(location) && paused.compareAndSet(false, true)) {
        settle.run();
        try {
          resume.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    MemoryLimits.writerWaits = l -> {
      if (l.equals(location)) {
        settle.run();
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          for (int i = 0; i < KEYS_PER_WRITER; i++) {
            int key = writer * KEYS_PER_WRITER + i;
            long[] v = f.apply(key);
            assertThat(v[0]).isEqualTo(key);
          }
          settle.run();
          return null;
        }));
      }
      assertThat(settled.await(120, TimeUnit.SECONDS)).as("every writer paused, waiting or done").isTrue();
      assertThat(paused).as("the pruner was paused").isTrue();

      CacheListing whilePaused = entries(cache);
      long stored = (long) WRITERS * KEYS_PER_WRITER * largest(whilePaused);
      assertThat(stored).as("what the writers would store").isGreaterThan(5 * LIMIT);
      assertThat(whilePaused.totalBytes()).as("the cache while its pruner is paused mid-prune")
          .isLessThanOrEqualTo(LIMIT + WRITERS * largest(whilePaused));

      resume.countDown();
      for (Future<?> d : done) {
        d.get(120, TimeUnit.SECONDS);
      }
      CacheListing after = entries(cache);
      System.out.println("pruner paused mid-prune under a " + LIMIT + "-byte limit: " + whilePaused.totalBytes()
          + " bytes while paused, " + after.totalBytes() + " once every store returned");
      assertThat(after.totalBytes()).as("the cache once every store has returned").isLessThanOrEqualTo(LIMIT);
    } finally {
      resume.countDown();
      pool.shutdown();
      assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).as("the writers ended").isTrue();
    }
  }

  @Test
  void aJvmThatExitsRightAfterItsLastStoreLeavesTheCacheWithinTheLimitWhileAnotherJvmHoldsThePruneLock()
      throws Exception {
    Path cache = dir.resolve("cache");
    Files.createDirectories(cache);
    // another JVM's pruner, paused mid-prune (a lease far from expiring): it holds the prune lock
    Store store = new LocalStore(cache);
    long expires = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(30);
    assertThat(store.publish(MemoryLimits.LOCK,
        List.of(EntryFile.of(Claims.FILE, Lease.record("prune", expires)))))
        .isEqualTo(Store.Publication.PUBLISHED);

    Process p = MemoryReliabilityTest.childJvm(Writer.class, cache.toString());
    assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    long stores = Long.parseLong(out.lines().filter(l -> l.startsWith("STORES ")).findFirst()
        .orElseThrow(() -> new AssertionError(out)).substring(7));

    CacheListing left = entries(cache);
    System.out.println("a JVM storing and exiting while another holds the prune lock, under a " + LIMIT
        + "-byte limit: " + stores + " stores, " + left.totalBytes() + " bytes left");
    assertThat(stores * largest(left)).as("bytes stored in all").isGreaterThan(5 * LIMIT);
    assertThat(left.totalBytes()).as("the cache after the writing JVM exited").isLessThanOrEqualTo(LIMIT);
    assertThat(cache.resolve(MemoryLimits.LOCK).resolve(Claims.FILE)).as("the other JVM's lock is still its own")
        .exists();
  }

  private static CacheListing entries(Path cache) {
    return Memory.builder(cache).verbose(0).readOnly().build().entries();
  }

  private static long largest(CacheListing listing) {
    return listing.entries().stream().mapToLong(CacheEntry::sizeBytes).max().orElse(0);
  }

  /** A JVM that stores 120 new entries from 4 threads under the limit and exits as soon as the last returns. */
  public static final class Writer {
    public static void main(String[] args) throws Exception {
      Memory memory = Memory.builder(Path.of(args[0])).verbose(0).bytesLimit(LIMIT).build();
      MemoizedFn1<Integer, long[]> f = memory.cache(LimitsUnderConcurrentWritersTest::block);
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          for (int i = 0; i < KEYS_PER_WRITER; i++) {
            int key = writer * KEYS_PER_WRITER + i;
            if (f.apply(key)[0] != key) {
              throw new AssertionError("wrong value for key " + key);
            }
          }
          return null;
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
      System.out.println("STORES " + memory.stats().stores());
      System.exit(0); // no shutdown work of its own: what it stored is all there is
    }
  }
}
