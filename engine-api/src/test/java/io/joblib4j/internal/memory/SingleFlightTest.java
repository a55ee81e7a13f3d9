package io.joblib4j.internal.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.spi.upkeep.Lease;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MemoryContractTest;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Single flight's edges in one JVM, and claims across JVMs (another JVM played by the test). */
@Timeout(120)
class SingleFlightTest {
  @TempDir Path dir;
  static final AtomicInteger COMPUTED = new AtomicInteger();
  static final ThreadLocal<Integer> DEPTH = ThreadLocal.withInitial(() -> 0);
  static volatile MemoizedFn1<Integer, Integer> self;

  public static int plusOne(int x) {
    COMPUTED.incrementAndGet();
    return x + 1;
  }

  /** Asks for its own result once, from inside its computation. */
  public static int recursive(int x) {
    COMPUTED.incrementAndGet();
    if (DEPTH.get() > 0) {
      return x;
    }
    DEPTH.set(1);
    try {
      return self.apply(x) + 1;
    } finally {
      DEPTH.set(0);
    }
  }

  @Test
  void aFunctionAskingForItsOwnEntryWhileComputingItDoesNotWaitForItself() {
    self = Memory.builder(dir).verbose(0).build().cache(SingleFlightTest::recursive);
    COMPUTED.set(0);
    assertThat(self.apply(5)).isEqualTo(6);
    assertThat(COMPUTED).hasValue(2);
    assertThat(InFlight.size()).isZero();
  }

  @Test
  void aWaiterInterruptedStopsWaitingWithItsInterruptSet() throws Exception {
    Memory memory = Memory.builder(dir).verbose(0).build();
    MemoizedFn1<Integer, double[]> f = memory.cache(MemoryContractTest::gated);
    CountDownLatch gate = new CountDownLatch(1);
    setGate(gate, new CountDownLatch(1));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<double[]> leader = pool.submit(() -> f.apply(3));
      awaitEntered();
      AtomicReference<Throwable> waiterGot = new AtomicReference<>();
      AtomicReference<Boolean> interrupted = new AtomicReference<>();
      Future<?> waiter = pool.submit(() -> {
        try {
          f.apply(3);
        } catch (Throwable t) {
          waiterGot.set(t);
          interrupted.set(Thread.currentThread().isInterrupted());
        }
      });
      awaitWaitingThreads(1);
      waiter.cancel(true);
      awaitTrue(() -> waiterGot.get() != null);
      assertThat(waiterGot.get()).isInstanceOf(CancellationException.class).hasMessageContaining("interrupted");
      assertThat(interrupted.get()).isTrue();
      gate.countDown();
      assertThat(leader.get(60, TimeUnit.SECONDS)).containsExactly(3, 3);
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aResultThatCannotBeStoredReachesTheThreadsThatWaitedForIt() throws Exception {
    LocalStore local = new LocalStore(dir.resolve("cache"));
    Memory full = Memory.builder(new FailingStore(local, 0, false)).verbose(0).build();
    MemoizedFn1<Integer, double[]> f = full.cache(MemoryContractTest::gated);
    CountDownLatch gate = new CountDownLatch(1);
    setGate(gate, new CountDownLatch(1));
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<String> warnings = Captured.warnings(() -> {
        try {
          List<Future<double[]>> all = List.of(pool.submit(() -> f.apply(4)), pool.submit(() -> f.apply(4)),
              pool.submit(() -> f.apply(4)));
          awaitEntered();
          awaitWaitingThreads(2);
          int before = callsOfGated();
          gate.countDown();
          for (Future<double[]> r : all) {
            assertThat(r.get(60, TimeUnit.SECONDS)).containsExactly(4, 4);
          }
          assertThat(callsOfGated() - before).isZero();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
      assertThat(warnings).hasSize(1).allMatch(w -> w.contains("No space left"));
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  // ---- claims: another JVM played by the test, writing the store directly ----------------------

  @Test
  void aClaimLeftByAJvmThatDiedExpiresAndNeverBlocks() throws Exception {
    LocalStore store = new LocalStore(dir.resolve("cache"));
    MemoizedFn1<Integer, Integer> f = Memory.builder(store).verbose(0)
        .claimComputations(Duration.ofMillis(300), Duration.ofMinutes(5)).build().cache(SingleFlightTest::plusOne);
    String entry = entryOf(store, f, 1);
    // a claim whose holder died 0.3 s after taking it: no renewal will come
    plantClaim(store, entry, System.currentTimeMillis() + 300);
    COMPUTED.set(0);
    long t0 = System.nanoTime();
    assertThat(f.apply(1)).isEqualTo(2);
    assertThat(COMPUTED).hasValue(1);
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(30);
    assertThat(store.exists(Claims.path(entry))).as("released").isFalse();
    // an expired claim is taken over at once
    plantClaim(store, entryOf(store, f, 2), System.currentTimeMillis() - 1_000);
    assertThat(f.apply(2)).isEqualTo(3);
  }

  @Test
  void aWaiterTakesTheEntryTheClaimingJvmStoredInsteadOfComputingIt() throws Exception {
    LocalStore store = new LocalStore(dir.resolve("cache"));
    Memory memory = Memory.builder(store).verbose(0).claimComputations().build();
    MemoizedFn1<Integer, Integer> f = memory.cache(SingleFlightTest::plusOne);
    String entry = entryOf(store, f, 10);
    plantClaim(store, entry, System.currentTimeMillis() + 60_000); // another JVM computes it now
    COMPUTED.set(0);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> waiting = pool.submit(() -> f.apply(10));
      awaitTrue(() -> sleepingIn(Claims.class));
      // the other JVM stores its result and lets the claim go (call() computes and stores without
      // joining this JVM's flight, as another JVM would)
      Memory.builder(store).verbose(0).build().cache(SingleFlightTest::plusOne).call(10);
      store.delete(Claims.path(entry));
      assertThat(waiting.get(60, TimeUnit.SECONDS)).isEqualTo(11);
      assertThat(COMPUTED).as("computed by the other JVM only").hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWaiterComputesItselfAfterMaxWaitEvenIfTheClaimIsKeptAlive() throws Exception {
    LocalStore store = new LocalStore(dir.resolve("cache"));
    MemoizedFn1<Integer, Integer> f = Memory.builder(store).verbose(0)
        .claimComputations(Duration.ofSeconds(30), Duration.ofMillis(200)).build().cache(SingleFlightTest::plusOne);
    plantClaim(store, entryOf(store, f, 20), System.currentTimeMillis() + 600_000); // a holder that hangs
    COMPUTED.set(0);
    assertThat(f.apply(20)).isEqualTo(21);
    assertThat(COMPUTED).hasValue(1);
  }

  @Test
  void claimsAreRenewedWhileTheirHolderComputes() throws Exception {
    LocalStore store = new LocalStore(dir.resolve("cache"));
    Memory memory = Memory.builder(store).verbose(0).claimComputations(Duration.ofMillis(300), Duration.ofMinutes(1)).build();
    MemoizedFn1<Integer, double[]> f = memory.cache(MemoryContractTest::gated);
    String entry = entryOf(store, f, 30);
    CountDownLatch gate = new CountDownLatch(1);
    setGate(gate, new CountDownLatch(1));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<double[]> holder = pool.submit(() -> f.apply(30));
      awaitEntered();
      String claimFile = Claims.path(entry) + "/" + Claims.FILE;
      long first = expiry(store, claimFile);
      awaitTrue(() -> expiry(store, claimFile) > first); // renewed, not left to expire
      gate.countDown();
      assertThat(holder.get(60, TimeUnit.SECONDS)).containsExactly(30, 30);
      assertThat(store.exists(Claims.path(entry))).isFalse();
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aStoreWhereClaimsCannotBeTakenStillComputes() throws Exception {
    LocalStore local = new LocalStore(dir.resolve("cache"));
    MemoizedFn1<Integer, Integer> f = Memory.builder(new FailingStore(local, 0, false)).verbose(0)
        .claimComputations().build().cache(SingleFlightTest::plusOne);
    COMPUTED.set(0);
    Captured.warnings(() -> assertThat(f.apply(1)).isEqualTo(2));
    assertThat(COMPUTED).hasValue(1);
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** The store path of f(x)'s entry: computed once, read from the listing, then deleted. */
  private static String entryOf(LocalStore store, MemoizedFn1<Integer, ?> f, int x) throws Exception {
    var shelved = f.callAndShelve(x);
    String entry = store.list("").stream().filter(s -> s.directory() && Layout.isEntry(s.path()))
        .map(StoreFile::path).filter(p -> p.endsWith("/" + shelved.key())).findFirst().orElseThrow();
    store.delete(entry);
    return entry;
  }

  private static void plantClaim(LocalStore store, String entry, long expiresAt) throws Exception {
    store.publish(Claims.path(entry), List.of(EntryFile.of(Claims.FILE, Lease.record("dead-jvm", expiresAt))));
  }

  private static long expiry(LocalStore store, String claimFile) {
    try (var in = store.open(claimFile).orElseThrow()) {
      return Lease.expiry(in).orElseThrow();
    } catch (Exception e) {
      return -1;
    }
  }

  private static void setGate(CountDownLatch gate, CountDownLatch entered) {
    MemoryContractTest.gate = gate;
    MemoryContractTest.entered = entered;
  }

  private static void awaitEntered() throws InterruptedException {
    assertThat(MemoryContractTest.entered.await(60, TimeUnit.SECONDS)).isTrue();
  }

  private static int callsOfGated() {
    return MemoryContractTest.callsOf("gated");
  }

  /**
   * Waits until {@code n} threads wait for another's computation: in {@code InFlight.await}, not
   * merely under {@code InFlight.once} — the leader, blocked in the gated function, is there too,
   * and counting it let a test interrupt a joiner that had not started yet (its task was then
   * cancelled before it ran, and never reported).
   */
  private static void awaitWaitingThreads(int n) throws InterruptedException {
    awaitTrue(() -> Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getState() == Thread.State.WAITING)
        .filter(e -> java.util.Arrays.stream(e.getValue())
            .anyMatch(f -> f.getClassName().endsWith("InFlight") && f.getMethodName().equals("await")))
        .count() >= n);
  }

  private static boolean sleepingIn(Class<?> c) {
    return Thread.getAllStackTraces().values().stream()
        .anyMatch(st -> java.util.Arrays.stream(st).anyMatch(f -> f.getClassName().equals(c.getName())
            && f.getMethodName().equals("sleep")));
  }

  private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition never held");
      }
      Thread.sleep(5);
    }
  }
}
