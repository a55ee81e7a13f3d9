package io.joblib4j.benchmarks;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
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
 * 10,000,000 tiny tasks ({@code x -> x + 1}) streamed from a lazy stream through {@code iterate()}
 * on the threads backend with 2 jobs, every result read in input order and summed: auto batching
 * beside {@code batchSize(1000)}, and beside a hand-written pipeline over a raw 2-thread {@link
 * ExecutorService} (chunks of 1000 tasks, at most 4 chunks in flight, read in order). One
 * operation is the whole call. The fork's heap is 256 MiB, where auto batching once died of
 * OutOfMemoryError.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 4)
@Measurement(iterations = 6, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xmx256m"})
public class StreamedTasksBenchmark {
  static final long TASKS = 10_000_000L;
  private static final int CHUNK = 1000;
  private static final int IN_FLIGHT = 4;

  private Parallel auto;
  private Parallel fixed;
  private ExecutorService executor;

  @Setup
  public void setUp() {
    auto = Parallel.nJobs(2);
    fixed = Parallel.builder().nJobs(2).batchSize(1000).build();
    executor = Executors.newFixedThreadPool(2);
  }

  @TearDown
  public void tearDown() {
    auto.close();
    fixed.close();
    executor.shutdownNow();
  }

  static long increment(long x) {
    return x + 1;
  }

  private static Stream<Delayed<Long>> tasks() {
    return LongStream.range(0, TASKS).mapToObj(i -> delayed(StreamedTasksBenchmark::increment, i));
  }

  private static long sum(ResultIterator<Long> results) {
    long sum = 0;
    try (results) {
      while (results.hasNext()) {
        sum += results.next();
      }
    }
    return sum;
  }

  /** joblib4j, {@code batchSize("auto")} (the default). */
  @Benchmark
  public long autoBatching() {
    return sum(auto.iterate(tasks()));
  }

  /** joblib4j, {@code batchSize(1000)}. */
  @Benchmark
  public long batchSize1000() {
    return sum(fixed.iterate(tasks()));
  }

  /** Baseline: the same stream cut into chunks of 1000 by hand, each chunk one task of a raw pool. */
  @Benchmark
  public long rawExecutorPipeline() throws InterruptedException, ExecutionException {
    Iterator<Delayed<Long>> in = tasks().iterator();
    ArrayDeque<Future<Object[]>> inFlight = new ArrayDeque<>();
    long sum = 0;
    while (in.hasNext() || !inFlight.isEmpty()) {
      while (in.hasNext() && inFlight.size() < IN_FLIGHT) {
        List<Delayed<Long>> chunk = new ArrayList<>(CHUNK);
        while (in.hasNext() && chunk.size() < CHUNK) {
          chunk.add(in.next());
        }
        inFlight.add(executor.submit(() -> {
          Object[] out = new Object[chunk.size()];
          for (int i = 0; i < out.length; i++) {
            out[i] = chunk.get(i).call();
          }
          return out;
        }));
      }
      for (Object r : inFlight.poll().get()) {
        sum += (Long) r;
      }
    }
    return sum;
  }
}
