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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * 16 CPU-bound tasks of about 250 ms each on the threads backend, with 1 job (the baseline: a
 * sequential loop in the caller's thread) and 2 jobs. The speed-up is the ratio of the two.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public class CpuBoundBenchmark {
  static final int TASKS = 16;

  @Param({"1", "2"})
  public int nJobs;

  private long iterationsFor250ms;

  @Setup
  public void calibrate() {
    for (int i = 0; i < 5; i++) {
      burn(5_000_000); // let the JIT compile burn() before timing it
    }
    long n = 20_000_000;
    long t0 = System.nanoTime();
    burn(n);
    double nanosPerIteration = (double) (System.nanoTime() - t0) / n;
    iterationsFor250ms = (long) (250_000_000L / nanosPerIteration);
  }

  /** Work the JIT cannot remove: a chain of dependent floating-point operations. */
  static double burn(long iterations) {
    double x = 1.0;
    for (long i = 0; i < iterations; i++) {
      x = Math.sqrt(x * 1.000001 + i % 7);
    }
    return x;
  }

  @Benchmark
  public List<Double> sixteenTasksOf250ms() {
    long n = iterationsFor250ms;
    try (Parallel p = Parallel.nJobs(nJobs)) {
      return p.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(CpuBoundBenchmark::burn, n)));
    }
  }
}
