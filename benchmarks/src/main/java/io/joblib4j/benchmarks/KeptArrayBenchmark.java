package io.joblib4j.benchmarks;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A large array shared again (issue 21 item 2): 8 tasks on 2 workers summing one 400 MB {@code
 * double[]}, each its eighth, on a {@code Parallel} that already ran the same call (joblib with
 * loky: 0.011 s for the second and third call, measured in the issue; joblib keeps the memmap,
 * which is why it also misses a change to the array). Every iteration is a second-or-later call.
 *
 * <ul>
 *   <li>{@code sameArrayAgain}: the same array, unchanged: its kept file is reused after a content
 *       digest, and each worker's copy as it is (the tasks' code was proven not to store into a
 *       {@code double[]}; a task that may have is followed by a refresh of the copy from the file).
 *   <li>{@code sameArrayAgainWholeSums}: the same, each task summing the whole array.
 *   <li>{@code sameArrayAgainNoSums}: the same 8 tasks returning a number without reading the
 *       array: what a second call costs besides the sums (the parent's digest, dispatch, results).
 *   <li>{@code changedArray}: one element changed before each call: written again and read again
 *       by each worker (what every call cost before files were kept).
 *   <li>{@code sequentialEighths}: the baseline, the 8 sums in this JVM.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class KeptArrayBenchmark {
  static final int ELEMENTS = 50_000_000; // 400 MB
  static final int TASKS = 8;

  private double[] data;
  private Parallel processes;

  @Setup
  public void setUp() {
    data = new double[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      data[i] = i % 1000;
    }
    processes = Parallel.builder().backend("processes").nJobs(2).build();
    processes.run(eighths(data)); // the first call: workers up, the file written
  }

  @TearDown
  public void tearDown() {
    processes.close();
  }

  static double sum(double[] a, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += a[i];
    }
    return s;
  }

  static List<io.joblib4j.Delayed<Double>> eighths(double[] a) {
    return IntStream.range(0, TASKS).mapToObj(t -> delayed(x -> sum(x, t * (x.length / TASKS),
        (t + 1) * (x.length / TASKS)), a)).toList();
  }

  @Benchmark
  public List<Double> sameArrayAgain() {
    return processes.run(eighths(data));
  }

  @Benchmark
  public List<Double> sameArrayAgainWholeSums() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(t -> delayed(x -> sum(x, 0, x.length), data)));
  }

  @Benchmark
  public List<Double> sameArrayAgainNoSums() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(t -> delayed(x -> (double) x.length + t, data)));
  }

  @Benchmark
  public List<Double> changedArray() {
    data[0] += 1;
    return processes.run(eighths(data));
  }

  @Benchmark
  public double sequentialEighths() {
    double s = 0;
    for (int t = 0; t < TASKS; t++) {
      s += sum(data, t * (ELEMENTS / TASKS), (t + 1) * (ELEMENTS / TASKS));
    }
    return s;
  }
}
