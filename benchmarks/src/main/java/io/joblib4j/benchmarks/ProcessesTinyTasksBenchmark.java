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
 * 100,000 tiny tasks ({@code x -> x + 1}) with auto batching on 2 child-JVM workers (joblib's loky:
 * 246,000 tasks/s here), beside the same call on the threads backend in the same run. One
 * operation is the whole call; workers are already running.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class ProcessesTinyTasksBenchmark {
  static final int TASKS = 100_000;

  private Parallel processes;
  private Parallel threads;

  @Setup
  public void setUp() {
    processes = Parallel.builder().backend("processes").nJobs(2).build();
    threads = Parallel.builder().backend("threads").nJobs(2).build();
  }

  @TearDown
  public void tearDown() {
    processes.close();
    threads.close();
  }

  static int increment(int x) {
    return x + 1;
  }

  @Benchmark
  public List<Integer> processes() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(ProcessesTinyTasksBenchmark::increment, i)));
  }

  @Benchmark
  public List<Integer> threads() {
    return threads.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(ProcessesTinyTasksBenchmark::increment, i)));
  }
}
