package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The local store under stress: full disks, writers that die mid-write, several JVMs at once. */
@Timeout(300)
class MemoryReliabilityTest {
  @TempDir Path dir;

  /** Keyed work whose results are big enough to span many writes. */
  public static long[] work(int key) {
    long[] out = new long[2_000];
    for (int i = 0; i < out.length; i++) {
      out[i] = (long) key * 1_000_003 + i;
    }
    return out;
  }

  static boolean valid(int key, long[] result) {
    return result.length == 2_000 && result[0] == (long) key * 1_000_003 && result[1_999] == (long) key * 1_000_003 + 1_999;
  }

  private final List<Path> shmFolders = new ArrayList<>();

  /** A cache folder where fsync is free, for tests about concurrency rather than durability. */
  private Path fastFolder(String name) throws IOException {
    Path shm = Path.of("/dev/shm");
    if (!Files.isDirectory(shm) || !Files.isWritable(shm)) {
      return dir.resolve(name);
    }
    Path base = Files.createTempDirectory(shm, "joblib4j-test");
    shmFolders.add(base);
    return base.resolve(name);
  }

  @org.junit.jupiter.api.AfterEach
  void removeShmFolders() throws IOException {
    for (Path p : shmFolders) {
      LocalStore.deleteTree(p);
    }
  }

  @Test
  void aFullDiskIsAWarningAndTheCallStillReturnsItsValue() throws Exception {
    LocalStore local = new LocalStore(dir.resolve("cache"));
    Memory good = Memory.builder(local).verbose(0).build();
    good.cache(MemoryReliabilityTest::work).apply(1); // an entry that must survive
    List<String> warnings = new java.util.ArrayList<>();
    for (long budget : new long[] {0, 1, 100, 1_000, 10_000}) {
      Memory full = Memory.builder(new FailingStore(local, budget, false)).verbose(0).build();
      MemoizedFn1<Integer, long[]> f = full.cache(MemoryReliabilityTest::work);
      warnings.addAll(Captured.warnings(() -> assertThat(valid(2, f.apply(2))).isTrue()));
      assertThat(local.exists(entries(local).stream().filter(e -> !e.isEmpty()).findFirst().orElseThrow())).isTrue();
      assertThat(entries(local)).hasSize(1);
    }
    // the store's trouble, once a minute per store: not one warning per call
    assertThat(warnings).hasSize(1).allMatch(w -> w.contains("Unable to cache") && w.contains("No space left"));
    try (var files = Files.walk(local.root())) {
      assertThat(files.filter(p -> p.getFileName().toString().startsWith(".tmp-"))).isEmpty();
    }
    assertThat(valid(1, good.cache(MemoryReliabilityTest::work).apply(1))).isTrue();
  }

  /** A writer JVM halted after k bytes, for k over the whole entry: no reader ever sees it. */
  @Test
  void aWriterThatDiesMidWriteLeavesNoCorruptRead() throws Exception {
    Path cache = fastFolder("crash");
    long entryBytes;
    {
      Path probe = fastFolder("probe");
      Memory m = Memory.builder(probe).verbose(0).build();
      m.cache(MemoryReliabilityTest::work).apply(7);
      entryBytes = new LocalStore(probe).list("").stream().filter(f -> !f.directory() && !f.path().startsWith("."))
          .filter(f -> f.path().contains("/")).filter(f -> f.path().split("/").length == 3).mapToLong(StoreFile::size).sum();
    }
    List<Long> points = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      points.add(i * (entryBytes + 40) / 23);
    }
    for (long k : points) {
      Process p = childJvm(CrashingWriter.class, cache.toString(), Long.toString(k));
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      int code = p.exitValue();
      assertThat(code).as("halted after " + k + " bytes, or finished").isIn(0, 77);
      Memory reader = Memory.builder(cache).verbose(0).build();
      AtomicInteger loaded = new AtomicInteger();
      List<String> warnings = Captured.warnings(() -> {
        MemoizedFn1<Integer, long[]> f = reader.cache(MemoryReliabilityTest::work);
        if (f.checkCallInCache(7)) {
          loaded.incrementAndGet();
        }
        assertThat(valid(7, f.apply(7))).isTrue();
      });
      assertThat(warnings).as("no load error after a crash at " + k).isEmpty();
      reader.cache(MemoryReliabilityTest::work).clear();
    }
    LocalStore store = new LocalStore(cache);
    store.sweep(Duration.ZERO);
    try (var files = Files.walk(store.root())) {
      assertThat(files.filter(p -> p.getFileName().toString().startsWith(".tmp-"))).isEmpty();
    }
  }

  /** Run in a child JVM: caches work(7) through a store that halts the JVM after k bytes. */
  public static final class CrashingWriter {
    public static void main(String[] args) throws Exception {
      LocalStore local = new LocalStore(Path.of(args[0]));
      Memory m = Memory.builder(new FailingStore(local, Long.parseLong(args[1]), true)).verbose(0).build();
      m.cache(MemoryReliabilityTest::work).apply(7);
    }
  }

  /** The stress case: 2 JVMs x 8 threads x 1,000 keys on one cache folder. */
  @Test
  void twoJvmsOfEightThreadsOnOneThousandKeysLeaveOneCompleteEntryPerKey() throws Exception {
    Path cache = fastFolder("shared");
    Process a = childJvm(ConcurrentWriter.class, cache.toString(), "1");
    Process b = childJvm(ConcurrentWriter.class, cache.toString(), "2");
    for (Process p : List.of(a, b)) {
      assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains("OK 8000 calls").doesNotContain("WARN");
    }
    LocalStore store = new LocalStore(cache);
    List<String> entries = entries(store);
    assertThat(entries).hasSize(1_000);
    Memory reader = Memory.builder(cache).verbose(0).build();
    MemoizedFn1<Integer, long[]> f = reader.cache(MemoryReliabilityTest::work);
    List<String> warnings = Captured.warnings(() -> {
      for (int key = 0; key < 1_000; key++) {
        assertThat(f.checkCallInCache(key)).isTrue();
        assertThat(valid(key, f.apply(key))).isTrue();
      }
    });
    assertThat(warnings).isEmpty();
  }

  /** Run in each child JVM: 8 threads calling the memoized work on 1,000 keys in shuffled orders. */
  public static final class ConcurrentWriter {
    public static void main(String[] args) throws Exception {
      List<String> warnings = Collections.synchronizedList(new ArrayList<>());
      io.joblib4j.spi.support.Warnings.addHook((s, m) -> warnings.add(m));
      Memory m = Memory.builder(Path.of(args[0])).verbose(0).build();
      MemoizedFn1<Integer, long[]> f = m.cache(MemoryReliabilityTest::work);
      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long seed = Long.parseLong(args[1]) * 31 + t;
        done.add(pool.submit(() -> {
          List<Integer> keys = new ArrayList<>();
          for (int k = 0; k < 1_000; k++) {
            keys.add(k);
          }
          Collections.shuffle(keys, new java.util.Random(seed));
          start.await();
          int n = 0;
          for (int k : keys) {
            if (!valid(k, f.apply(k))) {
              throw new AssertionError("wrong value for " + k);
            }
            n++;
          }
          return n;
        }));
      }
      start.countDown();
      int calls = 0;
      for (Future<Integer> d : done) {
        calls += d.get();
      }
      pool.shutdown();
      System.out.println("OK " + calls + " calls" + (warnings.isEmpty() ? "" : " WARN " + warnings));
    }
  }

  /** Work that takes a while, counting how often each key is computed in this JVM. */
  static final java.util.concurrent.atomic.AtomicIntegerArray COMPUTED = new java.util.concurrent.atomic.AtomicIntegerArray(1_000);

  public static long[] slowWork(int key) throws InterruptedException {
    COMPUTED.incrementAndGet(key);
    Thread.sleep(3); // stands for work that takes time; the test orders nothing by it
    return work(key);
  }

  /**
   * The race: 2 JVMs x 8 threads asking for the same keys in the same order, released at
   * once. Each key is computed at most once per JVM (before: up to 16 times), and with claims once
   * in all.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void racingThreadsAndJvmsComputeEachKeyOncePerJvmAndWithClaimsOnceInAll(boolean claims) throws Exception {
    Path cache = fastFolder("race-" + claims);
    int keys = 200;
    try (io.joblib4j.testing.Rendezvous r = io.joblib4j.testing.Rendezvous.open()) {
      io.joblib4j.testing.Rendezvous.Gate gate = r.gate("start");
      List<Process> jvms = new ArrayList<>();
      for (int j = 0; j < 2; j++) {
        jvms.add(childJvm(RacingCaller.class, cache.toString(), Boolean.toString(claims), Integer.toString(keys),
            gate.host(), Integer.toString(gate.port())));
      }
      r.awaitArrivals("start", 2);
      r.openGate("start");
      int[] total = new int[keys];
      StringBuilder outs = new StringBuilder();
      for (Process p : jvms) {
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        outs.append(out.lines().filter(l -> !l.startsWith("COMPUTED")).collect(Collectors.joining("\n"))).append("\n");
        assertThat(p.exitValue()).as(out).isZero();
        String counts = out.lines().filter(l -> l.startsWith("COMPUTED ")).findFirst().orElseThrow(() -> new AssertionError(out));
        String[] perKey = counts.substring("COMPUTED ".length()).split(",");
        for (int k = 0; k < keys; k++) {
          int n = Integer.parseInt(perKey[k]);
          assertThat(n).as("computations of key " + k + " in one JVM\n" + out).isLessThanOrEqualTo(1);
          total[k] += n;
        }
      }
      int most = java.util.Arrays.stream(total).max().orElseThrow();
      int all = java.util.Arrays.stream(total).sum();
      System.out.println("2 JVMs x 8 threads, " + keys + " keys, claims " + claims + ": " + all
          + " computations, at most " + most + " per key");
      assertThat(java.util.Arrays.stream(total).boxed().toList()).as("computations per key; the JVMs said:\n" + outs)
          .allMatch(n -> n >= 1 && n <= (claims ? 1 : 2));
    }
  }

  /** Run in each child JVM: 8 threads asking for keys 0..n-1 in order, released by the test's gate. */
  public static final class RacingCaller {
    public static void main(String[] args) throws Exception {
      Memory.Builder b = Memory.builder(Path.of(args[0])).verbose(0);
      if (Boolean.parseBoolean(args[1])) {
        b.claimComputations();
      }
      MemoizedFn1<Integer, long[]> f = b.build().cache(MemoryReliabilityTest::slowWork);
      io.joblib4j.spi.support.Warnings.addHook((src, m) -> System.out.println("WARNING " + m));
      int keys = Integer.parseInt(args[2]);
      io.joblib4j.testing.Rendezvous.Gate gate = new io.joblib4j.testing.Rendezvous.Gate(args[3], Integer.parseInt(args[4]), "start");
      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch ready = new CountDownLatch(8);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(pool.submit(() -> {
          ready.countDown();
          go.await();
          for (int k = 0; k < keys; k++) {
            if (!valid(k, f.apply(k))) {
              throw new AssertionError("wrong value for " + k);
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
      StringBuilder counts = new StringBuilder("COMPUTED ");
      for (int k = 0; k < keys; k++) {
        counts.append(k == 0 ? "" : ",").append(COMPUTED.get(k));
      }
      System.out.println(counts);
    }
  }

  static List<String> entries(LocalStore store) throws IOException {
    return store.list("").stream().filter(f -> f.directory() && Layout.isEntry(f.path())).map(StoreFile::path)
        .collect(Collectors.toList());
  }

  static Process childJvm(Class<?> main, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
  }
}
