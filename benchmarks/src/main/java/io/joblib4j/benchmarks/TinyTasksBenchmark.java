package io.joblib4j.benchmarks;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;
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
 * 100,000 tiny tasks ({@code x -> x + 1}) with two workers: joblib4j's threads backend with auto
 * batching, beside the same tasks handed one by one to a raw 2-thread {@link ExecutorService} and
 * to a raw 2-thread {@link ForkJoinPool}, results collected in input order in every case. One
 * operation is the whole call of 100,000 tasks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class TinyTasksBenchmark {
  static final int TASKS = 100_000;

  private Parallel parallel;
  private ExecutorService executor;
  private ForkJoinPool forkJoin;

  @Setup
  public void setUp() {
    parallel = Parallel.nJobs(2);
    executor = Executors.newFixedThreadPool(2);
    forkJoin = new ForkJoinPool(2);
  }

  @TearDown
  public void tearDown() {
    parallel.close();
    executor.shutdownNow();
    forkJoin.shutdownNow();
  }

  static int increment(int x) {
    return x + 1;
  }

  /** joblib4j, workers reused across calls (a Parallel in try-with-resources). */
  @Benchmark
  public List<Integer> joblib4jThreads() {
    return parallel.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(TinyTasksBenchmark::increment, i)));
  }

  /** joblib4j, a new Parallel per call: thread start-up included. */
  @Benchmark
  public List<Integer> joblib4jThreadsNewInstance() {
    try (Parallel p = Parallel.nJobs(2)) {
      return p.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(TinyTasksBenchmark::increment, i)));
    }
  }

  /** Baseline: every task submitted to a fixed pool of 2 threads, futures read in order. */
  @Benchmark
  public List<Integer> rawExecutorService() throws InterruptedException, ExecutionException {
    List<Future<Integer>> futures = new ArrayList<>(TASKS);
    for (int i = 0; i < TASKS; i++) {
      int x = i;
      Callable<Integer> task = () -> increment(x);
      futures.add(executor.submit(task));
    }
    List<Integer> out = new ArrayList<>(TASKS);
    for (Future<Integer> f : futures) {
      out.add(f.get());
    }
    return out;
  }

  /** Baseline: every task forked on a ForkJoinPool of 2 threads, joined in order. */
  @Benchmark
  public List<Integer> rawForkJoinPool() {
    List<ForkJoinTask<Integer>> tasks = new ArrayList<>(TASKS);
    for (int i = 0; i < TASKS; i++) {
      int x = i;
      tasks.add(forkJoin.submit(() -> increment(x)));
    }
    List<Integer> out = new ArrayList<>(TASKS);
    for (ForkJoinTask<Integer> t : tasks) {
      out.add(t.join());
    }
    return out;
  }
}
