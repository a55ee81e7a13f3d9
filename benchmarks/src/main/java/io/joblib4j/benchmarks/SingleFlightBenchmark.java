package io.joblib4j.benchmarks;

import io.joblib4j.CallResult;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What computing a missing key once costs (issue 19, item 9), through the public Memory API only:
 *
 * <ul>
 *   <li>a miss and store of a small result without and with {@code claimComputations()} (the claim
 *       file a JVM takes before computing, and releases after publishing);
 *   <li>8 threads racing for one new key whose function takes about 2 ms of CPU: with Memory's
 *       single flight one computes and stores while the others wait and load its result, beside
 *       the baseline of 8 threads each computing it (what the race cost before single flight, minus
 *       the stores) and of one computation alone.
 * </ul>
 *
 * Sample mode: medians. {@code folder=disk} is the system temp folder, {@code shm} is /dev/shm.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SingleFlightBenchmark {
  static final int RACERS = 8;
  /** Iterations of {@link #work} that take about 2 ms on the benchmark machine. */
  static final int WORK = 400_000;

  @Param({"disk"})
  public String folder;

  private Path dir;
  private MemoizedFn1<Integer, double[]> plain;
  private MemoizedFn1<Integer, double[]> claimed;
  private ExecutorService racers;
  private int key;

  /** The cached function: about 2 ms of arithmetic, then a small result. */
  public static double[] work(int seed) {
    double x = seed;
    for (int i = 0; i < WORK; i++) {
      x = x * 1.000001 + 1e-9 * i;
    }
    double[] r = new double[16];
    java.util.Arrays.fill(r, x);
    return r;
  }

  @Setup
  public void setUp() throws IOException {
    Path base = folder.equals("shm") ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
    dir = Files.createTempDirectory(base, "jl4j-flightbench");
    plain = Memory.builder(dir.resolve("plain")).verbose(0).build().cache(SingleFlightBenchmark::work);
    claimed = Memory.builder(dir.resolve("claimed")).verbose(0).claimComputations().build()
        .cache(SingleFlightBenchmark::work);
    racers = Executors.newFixedThreadPool(RACERS);
  }

  @TearDown
  public void tearDown() throws IOException {
    racers.shutdownNow();
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Setup(Level.Invocation)
  public void nextKey() {
    key++; // every invocation misses
  }

  @Benchmark
  public CallResult<double[]> missAndStore() {
    return plain.call(key);
  }

  @Benchmark
  public CallResult<double[]> missAndStoreWithClaims() {
    return claimed.call(key);
  }

  /** One computation, no cache: the floor of a miss. */
  @Benchmark
  public double[] computeOnceBaseline() {
    return work(key);
  }

  /** 8 threads released together on one new key: one computes and stores, 7 wait and load. */
  @Benchmark
  public List<double[]> race8SingleFlight() throws Exception {
    int k = key;
    return race(i -> plain.apply(k));
  }

  /** The same race with claims on: the leader also takes and releases the claim file. */
  @Benchmark
  public List<double[]> race8SingleFlightWithClaims() throws Exception {
    int k = key;
    return race(i -> claimed.apply(k));
  }

  /** Baseline: 8 threads released together, each computing the function itself (no cache, no store). */
  @Benchmark
  public List<double[]> race8ComputeEachBaseline() throws Exception {
    int k = key;
    return race(i -> work(k));
  }

  private List<double[]> race(IntFunction<double[]> call) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<double[]>> futures = new ArrayList<>(RACERS);
    for (int i = 0; i < RACERS; i++) {
      int n = i;
      futures.add(racers.submit(() -> {
        go.await();
        return call.apply(n);
      }));
    }
    go.countDown();
    List<double[]> out = new ArrayList<>(RACERS);
    for (Future<double[]> f : futures) {
      out.add(f.get());
    }
    return out;
  }
}
