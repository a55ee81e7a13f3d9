package io.joblib4j;

import static io.joblib4j.testing.JavaSerialized.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.fn.Fn1;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Memory's behaviour over any {@link Store} (joblib's test_memory.py cases 33-44, and the
 * reliability cases that only need the store): a store's test extends this class and says how to
 * open an empty store. It runs unchanged against local disk and HDFS.
 */
@Timeout(120)
public abstract class MemoryContractTest {
  /** Counts calls per function name, so a test can see what was computed and what was loaded. */
  protected static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  protected Store store;
  protected Memory memory;

  /** A new, empty store for one test. */
  protected abstract Store newEmptyStore() throws Exception;

  @BeforeEach
  void openMemory() throws Exception {
    CALLS.clear();
    store = newEmptyStore();
    memory = Memory.builder(store).verbose(0).build();
  }

  @AfterEach
  void closeStore() {
    if (store != null) { // none where an implementation skipped the case while opening it
      store.close();
    }
  }

  protected static int calls(String name) {
    AtomicInteger n = CALLS.get(name);
    return n == null ? 0 : n.get();
  }

  static int count(String name) {
    return CALLS.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
  }

  public static double square(double x) {
    count("square");
    return x * x;
  }

  public static String greet(String name, int times, boolean loud) {
    count("greet");
    String s = ("hello " + name + " ").repeat(times).trim();
    return loud ? s.toUpperCase() : s;
  }

  public static int failing(int x) throws IOException {
    count("failing");
    throw new IOException("cannot compute " + x);
  }

  public static List<Integer> listOf(List<Integer> in) {
    count("listOf");
    return new ArrayList<>(in);
  }

  /** joblib's test_memory_integration: computed once per distinct argument set. */
  @Test
  public void computesOncePerDistinctArguments() {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    for (int round = 0; round < 3; round++) {
      assertThat(f.apply(3.0)).isEqualTo(9.0);
      assertThat(f.apply(4.0)).isEqualTo(16.0);
    }
    assertThat(calls("square")).isEqualTo(2);
  }

  @Test
  public void aNewMemoryOnTheSameStoreLoadsWhatAnEarlierOneStored() {
    memory.cache(MemoryContractTest::square).apply(5.0);
    Memory again = Memory.builder(store).verbose(0).build();
    assertThat(again.cache(MemoryContractTest::square).apply(5.0)).isEqualTo(25.0);
    assertThat(calls("square")).isEqualTo(1);
  }

  @Test
  public void clearMakesItComputeAgain() {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(2.0);
    f.clear();
    f.apply(2.0);
    assertThat(calls("square")).isEqualTo(2);
    memory.clear();
    f.apply(2.0);
    assertThat(calls("square")).isEqualTo(3);
  }

  /**
   * Memory.clear deletes what Memory wrote — the folders of memoized functions, each identified by its
   * function.json — and nothing else that shares the location: a ChunkedArray, the user's own files, a
   * folder that only looks like a function's (entries in it or not).
   */
  @Test
  public void clearDeletesWhatMemoryOwnsAndLeavesEverythingElse() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(2.0);
    memory.cache(MemoryContractTest::greet).apply("x", 1, false);
    String orphan = "Gone.fn-0123456789ab/" + "0123456789abcdef".repeat(2); // entries whose function.json was lost
    store.publish(orphan, List.of(EntryFile.of("output.jl4j", new byte[] {1}), EntryFile.of("metadata.json", new byte[] {2})));
    store.replace("notes.txt", "mine".getBytes());
    store.replace("data/readme.md", "mine too".getBytes());
    store.publish("arrays/features/array", List.of(EntryFile.of("array.json", "{}".getBytes()))); // a ChunkedArray
    store.publish("arrays/features/c000000", List.of(EntryFile.of("chunk.jl4j", new byte[] {3})));
    store.publish("looks.like-0123456789ab/report", List.of(EntryFile.of("summary.txt", new byte[] {4})));
    List<String> theirs = List.of("notes.txt", "data/readme.md", "arrays/features/array/array.json",
        "arrays/features/c000000/chunk.jl4j", "looks.like-0123456789ab/report/summary.txt");

    memory.clear();

    // entries in a folder without its function.json are no function's: left as they are (issue 37)
    assertThat(files("output.jl4j")).containsExactly(orphan + "/output.jl4j");
    assertThat(files("function.json")).isEmpty();
    assertThat(store.exists(orphan)).isTrue();
    for (String path : theirs) {
      assertThat(store.exists(path)).as(path).isTrue();
    }
    assertThat(store.exists(".gitignore")).isTrue();
    f.apply(2.0);
    assertThat(calls("square")).isEqualTo(2);
  }

  @Test
  public void evalIsCacheThenApply() {
    assertThat(memory.eval(MemoryContractTest::square, 6.0)).isEqualTo(36.0);
    assertThat(memory.eval(MemoryContractTest::square, 6.0)).isEqualTo(36.0);
    assertThat(calls("square")).isEqualTo(1);
  }

  /** joblib's test_memory_exception: exceptions are never cached. */
  @Test
  public void exceptionsAreNeverCached() {
    MemoizedFn1<Integer, Integer> f = memory.cache(MemoryContractTest::failing);
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> f.apply(1)).isInstanceOf(IOException.class).hasMessage("cannot compute 1");
    }
    assertThat(calls("failing")).isEqualTo(2);
    assertThat(f.checkCallInCache(1)).isFalse();
  }

  /** joblib's test_memory_ignore. */
  @Test
  public void ignoredArgumentsDoNotChangeTheKey() {
    var byPosition = memory.cache(MemoryContractTest::greet).ignore(2);
    assertThat(byPosition.apply("ada", 2, false)).isEqualTo("hello ada hello ada");
    assertThat(byPosition.apply("ada", 2, true)).isEqualTo("hello ada hello ada"); // loud ignored: cached value
    assertThat(calls("greet")).isEqualTo(1);
    var byName = memory.cache(MemoryContractTest::greet).ignore("loud");
    assertThat(byName.apply("bob", 1, true)).isEqualTo("HELLO BOB");
    assertThat(byName.apply("bob", 1, false)).isEqualTo("HELLO BOB");
    assertThat(calls("greet")).isEqualTo(2);
    assertThatThrownBy(() -> memory.cache(MemoryContractTest::greet).ignore("volume"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no parameter \"volume\"")
        .hasMessageContaining("[name, times, loud]");
    assertThatThrownBy(() -> memory.cache(MemoryContractTest::greet).ignore(3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positions 0 to 2");
  }

  /** joblib's test_argument_change: a mutated argument gives a new key. */
  @Test
  public void aMutatedArgumentIsANewCall() {
    MemoizedFn1<List<Integer>, List<Integer>> f = memory.cache(MemoryContractTest::listOf);
    List<Integer> arg = new ArrayList<>(List.of(1, 2));
    assertThat(f.apply(arg)).containsExactly(1, 2);
    arg.add(3);
    assertThat(f.apply(arg)).containsExactly(1, 2, 3);
    assertThat(calls("listOf")).isEqualTo(2);
  }

  @Test
  public void capturedValuesJoinTheKey() {
    for (int offset : new int[] {1, 2, 1}) {
      Fn1<Integer, Integer> shifted = x -> {
        count("shifted");
        return x + offset;
      };
      assertThat(memory.cache(shifted).apply(10)).isEqualTo(10 + offset);
    }
    assertThat(calls("shifted")).isEqualTo(2); // offset 1 is found again the third time
  }

  /** joblib's test_memory_recomputes_after_an_error_while_loading_results. */
  @Test
  public void aDamagedEntryIsRecomputedWithOneWarningNeverServed() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(7.0);
    String output = onlyFile("output.jl4j");
    damage(output, bytes -> bytes[bytes.length / 2] ^= 0x5a);
    List<String> warnings = Captured.warnings(() -> assertThat(f.apply(7.0)).isEqualTo(49.0));
    assertThat(warnings).hasSize(1).first().asString().contains("Exception while loading results");
    assertThat(calls("square")).isEqualTo(2);
    assertThat(f.apply(7.0)).isEqualTo(49.0);
    assertThat(calls("square")).isEqualTo(2);
  }

  @Test
  public void aTruncatedOrForeignEntryIsRecomputed() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(1.0);
    f.apply(2.0);
    List<String> outputs = files("output.jl4j");
    assertThat(outputs).hasSize(2);
    byte[] two = read(outputs.get(1));
    damage(outputs.get(0), bytes -> { }, two); // entry 0 now holds entry 1's file
    String other = outputs.get(1);
    damage(other, bytes -> { }, java.util.Arrays.copyOf(two, two.length - 9)); // truncated
    Captured.warnings(() -> {
      assertThat(f.apply(1.0)).isEqualTo(1.0);
      assertThat(f.apply(2.0)).isEqualTo(4.0);
    });
    assertThat(calls("square")).isEqualTo(4);
  }

  /** A compressed entry cut in its codec's trailer, or any entry with bytes after its end, is damaged. */
  @Test
  public void anEntryCutInItsCompressedTrailerOrWithBytesAfterItsEndIsRecomputed() throws Exception {
    Memory gzip = Memory.builder(store).verbose(0).compress(Compress.of("gzip", 3)).build();
    Memory lz4 = Memory.builder(store).verbose(0).compress(Compress.of("lz4", 1)).build();
    MemoizedFn1<Double, Double> g = gzip.cache(MemoryContractTest::square);
    MemoizedFn1<Double, Double> l = lz4.cache(MemoryContractTest::square);
    MemoizedFn1<Double, Double> raw = memory.cache(MemoryContractTest::square);
    g.apply(1.0); // compression is not part of the key: three arguments, three entries
    l.apply(2.0);
    raw.apply(3.0);
    List<String> outputs = files("output.jl4j");
    assertThat(outputs).hasSize(3);
    for (String output : outputs) {
      byte[] b = read(output);
      boolean compressed = b[0] != (byte) 0x89;
      damage(output, x -> { }, compressed ? java.util.Arrays.copyOf(b, b.length - 1)
          : java.util.Arrays.copyOf(b, b.length + 2));
    }
    List<String> warnings = Captured.warnings(() -> {
      assertThat(g.apply(1.0)).isEqualTo(1.0);
      assertThat(l.apply(2.0)).isEqualTo(4.0);
      assertThat(raw.apply(3.0)).isEqualTo(9.0);
    });
    assertThat(calls("square")).isEqualTo(6);
    assertThat(warnings).hasSize(3).allMatch(w -> w.contains("Exception while loading results")
        && w.contains("output.jl4j"));
    assertThat(warnings).anyMatch(w -> w.contains("2 unexpected bytes after the end record"));
  }

  /** joblib's test_call_and_shelve and its lazy loading. */
  @Test
  public void callAndShelveStoresAndReturnsALazyReference() {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    MemorizedResult<Double> r = f.callAndShelve(8.0);
    assertThat(calls("square")).isEqualTo(1);
    MemorizedResult<Double> again = f.callAndShelve(8.0);
    assertThat(calls("square")).isEqualTo(1);
    assertThat(again.get()).isEqualTo(64.0);
    assertThat(r.metadata()).isPresent();
    assertThat(r.metadata().get().inputArguments()).containsEntry("x", "8.0");
    assertThat(r.key()).hasSize(32);
    r.clear();
    assertThatThrownBy(r::get).isInstanceOf(MissingCacheEntryException.class).hasMessageContaining("cleared");
  }

  @Test
  public void aShelvedResultOfADamagedEntryFailsWithATypedError() throws Exception {
    MemorizedResult<Double> r = memory.cache(MemoryContractTest::square).callAndShelve(9.0);
    damage(onlyFile("output.jl4j"), bytes -> bytes[bytes.length - 3] ^= 1);
    assertThatThrownBy(r::get).isInstanceOf(CorruptCacheEntryException.class).hasMessageContaining("corrupted");
  }

  /** joblib's TestMemorizedFunc: call() forces and returns value and metadata. */
  @Test
  public void callForcesTheComputationAndReturnsMetadata() {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(3.0);
    CallResult<Double> r = f.call(3.0);
    assertThat(r.value()).isEqualTo(9.0);
    assertThat(calls("square")).isEqualTo(2);
    CacheMetadata m = r.metadata();
    assertThat(m.function()).isEqualTo("MemoryContractTest.square");
    assertThat(m.functionId()).isEqualTo("io.joblib4j.MemoryContractTest#square(D)D");
    assertThat(m.codeVersion()).hasSize(32);
    assertThat(m.outputBytes()).isPositive();
    assertThat(m.duration().isNegative()).isFalse();
    assertThat(f.apply(3.0)).isEqualTo(9.0);
    assertThat(calls("square")).isEqualTo(2);
  }

  /** joblib's test_check_call_in_cache and the validation callback. */
  @Test
  public void checkCallInCacheAndValidation() {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    assertThat(f.checkCallInCache(2.0)).isFalse();
    f.apply(2.0);
    assertThat(f.checkCallInCache(2.0)).isTrue();
    MemoizedFn1<Double, Double> never = f.validation((m, clock) -> false);
    assertThat(never.checkCallInCache(2.0)).isFalse(); // and, as joblib, the invalid entry is deleted
    assertThat(f.checkCallInCache(2.0)).isFalse();
    never.apply(2.0);
    never.apply(2.0);
    assertThat(calls("square")).isEqualTo(3);
    MemoizedFn1<Double, Double> slowOnly = f.validation((m, clock) -> m.duration().compareTo(Duration.ofHours(1)) > 0);
    slowOnly.apply(5.0);
    slowOnly.apply(5.0);
    assertThat(calls("square")).isEqualTo(5);
  }

  /** joblib's test_memory_pickle_dump_load, and a function sent to a worker keeps its cache. */
  @Test
  public void memoizedFunctionsAndResultsSurviveSerialization() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    f.apply(11.0);
    MemorizedResult<Double> r = f.callAndShelve(12.0);
    MemoizedFn1<Double, Double> copy = roundTrip(f);
    assertThat(copy.apply(11.0)).isEqualTo(121.0);
    assertThat(calls("square")).isEqualTo(2);
    assertThat(roundTrip(r).get()).isEqualTo(144.0);
    Memory m = roundTrip(memory);
    assertThat(m.location()).isEqualTo(memory.location());
    assertThat(m.cache(MemoryContractTest::square).apply(12.0)).isEqualTo(144.0);
    assertThat(calls("square")).isEqualTo(2);
  }

  /** joblib's test_cached_function_race_condition_when_persisting_output. */
  @Test
  public void concurrentCallersOfOneKeyLeaveOneCompleteEntryAndNoLoadErrors() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<String> warnings = Captured.warnings(() -> {
      List<Future<Double>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        results.add(pool.submit(() -> {
          start.await();
          double sum = 0;
          for (int i = 0; i < 20; i++) {
            sum += f.apply((double) (i % 5));
          }
          return sum;
        }));
      }
      start.countDown();
      for (Future<Double> r : results) {
        try {
          assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(4 * (0 + 1 + 4 + 9 + 16.0));
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    });
    pool.shutdown();
    assertThat(warnings).isEmpty();
    assertThat(files("output.jl4j")).hasSize(5);
  }

  /** Blocks until the test opens {@link #gate}, counting entries: a computation that takes as long as the test says. */
  public static volatile CountDownLatch gate = new CountDownLatch(0);
  public static volatile CountDownLatch entered = new CountDownLatch(0);

  /** How often {@code name} was computed since the test began. */
  public static int callsOf(String name) {
    return calls(name);
  }

  public static double[] gated(int x) throws InterruptedException {
    count("gated");
    entered.countDown();
    gate.await();
    if (x < 0) {
      throw new IllegalStateException("negative " + x + ", computation " + calls("gated"));
    }
    return new double[] {x, x};
  }

  /**
   * Single flight: 8 threads missing one entry at once wait for one computation, and each gets its
   * own copy of the stored result.
   */
  @Test
  public void threadsMissingOneEntryAtOnceWaitForOneComputationAndEachGetsItsOwnCopy() throws Exception {
    MemoizedFn1<Integer, double[]> f = memory.cache(MemoryContractTest::gated);
    gate = new CountDownLatch(1);
    entered = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<double[]>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        results.add(pool.submit(() -> f.apply(7)));
      }
      assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
      awaitWaiting(pool, 7);
      gate.countDown();
      List<double[]> got = new ArrayList<>();
      for (Future<double[]> r : results) {
        got.add(r.get(60, TimeUnit.SECONDS));
      }
      assertThat(calls("gated")).isEqualTo(1);
      assertThat(got).allSatisfy(v -> assertThat(v).containsExactly(7, 7));
      assertThat(new java.util.HashSet<>(got.stream().map(System::identityHashCode).toList())).hasSize(8);
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  /** A failure reaches every thread that waited for it, as itself, and is not cached. */
  @Test
  public void aFailureReachesEveryThreadThatWaitedForItAndALaterCallComputesAgain() throws Exception {
    MemoizedFn1<Integer, double[]> f = memory.cache(MemoryContractTest::gated);
    gate = new CountDownLatch(1);
    entered = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<double[]>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> f.apply(-1)));
      }
      assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
      awaitWaiting(pool, 3);
      gate.countDown();
      java.util.Set<Throwable> failures = new java.util.HashSet<>();
      for (Future<double[]> r : results) {
        try {
          r.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          failures.add(e.getCause());
        }
      }
      assertThat(failures).hasSize(1).allMatch(e -> e instanceof IllegalStateException
          && e.getMessage().equals("negative -1, computation 1"));
      assertThatThrownBy(() -> f.apply(-1)).hasMessage("negative -1, computation 2");
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  /**
   * Waits (polling thread states, never for a set time) until {@code n} of the pool's threads wait
   * for a computation in flight. Only joiners count: the leader also has InFlight on its stack while
   * it blocks in the gated function, and counting it let a late joiner miss the flight.
   */
  protected static void awaitWaiting(ExecutorService pool, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      long waiting = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().startsWith("pool-") && (t.getState() == Thread.State.WAITING))
          .filter(t -> java.util.Arrays.stream(t.getStackTrace()).anyMatch(e -> e.getClassName().endsWith("InFlight") && e.getMethodName().equals("await")))
          .count();
      if (waiting >= n) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError(n + " threads never waited for the computation in flight");
  }

  /** joblib's test_memory_reduce_size_*. */
  @Test
  public void reduceSizeDeletesTheLeastRecentlyUsedFirst() throws Exception {
    MemoizedFn1<Double, Double> f = memory.cache(MemoryContractTest::square);
    for (double x = 0; x < 5; x++) {
      f.apply(x);
      store.touch(entryOf(x), java.time.Instant.now().minus(Duration.ofDays(10 - (long) x)));
    }
    f.apply(0.0); // 0 becomes the most recently used
    assertThat(memory.reduceSize((String) null, 3, null)).isEqualTo(2);
    assertThat(f.checkCallInCache(0.0)).isTrue();
    assertThat(f.checkCallInCache(1.0)).isFalse();
    assertThat(f.checkCallInCache(2.0)).isFalse();
    assertThat(f.checkCallInCache(4.0)).isTrue();
    assertThat(memory.reduceSize((String) null, null, Duration.ofDays(6).plusHours(12))).isEqualTo(1); // 3 was 7 days old
    assertThat(f.checkCallInCache(3.0)).isFalse();
    long one = entrySize(entryOf(0.0));
    assertThat(memory.reduceSize(one + "", null, null)).isEqualTo(1);
    assertThat(f.checkCallInCache(0.0)).isTrue();
    assertThat(memory.reduceSize("0", null, null)).isEqualTo(1);
    assertThatThrownBy(() -> memory.reduceSize("1K", null, Duration.ofDays(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    assertThat(memory.reduceSize((String) null, null, null)).isZero();
  }

  /** joblib's TestAutoGitignore. */
  @Test
  public void aGitignoreIsCreatedAndNeverOverwritten() throws Exception {
    memory.cache(MemoryContractTest::square).apply(1.0);
    assertThat(read(".gitignore")).isEqualTo("# Created by joblib4j automatically.\n*\n".getBytes());
    store.replace(".gitignore", "mine\n".getBytes());
    Memory.builder(store).verbose(0).build().cache(MemoryContractTest::square).apply(2.0);
    assertThat(read(".gitignore")).isEqualTo("mine\n".getBytes());
  }

  @Test
  public void hostileArgumentsAndNamesCreateNothingOutsideTheEntries() throws Exception {
    MemoizedFn1<String, Integer> f = memory.cache(String::length);
    for (String hostile : new String[] {"../../etc/passwd", "/absolute", "a/../../b", "\0nul", "C:\\win", "x".repeat(10_000)}) {
      assertThat(f.apply(hostile)).isEqualTo(hostile.length());
    }
    for (StoreFile file : store.list("")) {
      assertThat(file.path()).matches("(\\.gitignore|[A-Za-z0-9._-]+(/function\\.json|/[0-9a-f]{32}(/(output\\.jl4j|metadata\\.json))?)?)");
    }
  }

  @Test
  public void aResultThatCannotBeStoredIsReturnedWithAWarning() {
    MemoizedFn1<Integer, Object> f = memory.cache((Integer i) -> {
      count("unstorable");
      return new Thread("not storable " + i);
    });
    List<String> warnings = Captured.warnings(() -> assertThat(f.apply(1)).isInstanceOf(Thread.class));
    assertThat(warnings).anyMatch(w -> w.contains("Unable to cache"));
    assertThat(f.checkCallInCache(1)).isFalse();
  }

  // ---- helpers --------------------------------------------------------------------------------

  protected String entryOf(double x) {
    return files("output.jl4j").stream()
        .filter(p -> {
          try (InputStream in = store.open(p.replace("output.jl4j", "metadata.json")).orElseThrow()) {
            return new String(in.readAllBytes()).contains("\"x\" : \"" + x + "\"");
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        })
        .map(p -> p.substring(0, p.lastIndexOf('/'))).findFirst().orElseThrow();
  }

  private long entrySize(String entry) throws IOException {
    return store.list(entry).stream().filter(f -> !f.directory()).mapToLong(StoreFile::size).sum();
  }

  protected List<String> files(String name) {
    try {
      return store.list("").stream().filter(f -> !f.directory() && f.path().endsWith("/" + name))
          .map(StoreFile::path).sorted().toList();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  protected String onlyFile(String name) {
    List<String> all = files(name);
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  protected byte[] read(String path) throws IOException {
    try (InputStream in = store.open(path).orElseThrow()) {
      return in.readAllBytes();
    }
  }

  interface Edit {
    void apply(byte[] bytes);
  }

  /** Rewrites an entry with one file changed, through the store's own API (entries are immutable). */
  protected void damage(String file, Edit edit) throws IOException {
    byte[] bytes = read(file);
    edit.apply(bytes);
    damage(file, b -> { }, bytes);
  }

  private void damage(String file, Edit ignored, byte[] replacement) throws IOException {
    String entry = file.substring(0, file.lastIndexOf('/'));
    List<EntryFile> files = new ArrayList<>();
    for (StoreFile f : store.list(entry)) {
      if (!f.directory()) {
        byte[] content = f.path().equals(file) ? replacement : read(f.path());
        files.add(EntryFile.of(f.path().substring(entry.length() + 1), content));
      }
    }
    store.delete(entry);
    store.publish(entry, files);
  }

}
