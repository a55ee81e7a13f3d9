package io.joblib4j.benchmarks;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.Processes;
import io.joblib4j.spi.Backend;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first call on the processes backend with 2 workers: both child JVMs start, connect, and run
 * 4 tiny tasks (joblib: loky's first call, 1.11 s here). Each iteration gets a backend with workers
 * of its own, closed (and its JVMs gone) before the next. {@code secondCall} is the same call on
 * workers already running (loky: 12 ms).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 15)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class ProcessesFirstCallBenchmark {
  private Backend backend;
  private Parallel parallel;

  @Setup(Level.Iteration)
  public void newBackend() {
    backend = Processes.builder().reuse(false).build();
    parallel = Parallel.builder().backend(backend).nJobs(2).build();
  }

  @TearDown(Level.Iteration)
  public void closeBackend() throws InterruptedException {
    List<ProcessHandle> children = ProcessHandle.current().children().toList();
    parallel.close();
    backend.close();
    for (ProcessHandle h : children) {
      h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> h).join();
    }
  }

  @Benchmark
  public List<Integer> firstCall() {
    return parallel.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x + 1, i)));
  }

  /** Workers are up (started by a first call in setup): the cost of a call itself. */
  @State(Scope.Thread)
  public static class Warm {
    Parallel parallel = Parallel.builder().backend("processes").nJobs(2).build();

    @Setup(Level.Trial)
    public void start() {
      parallel.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x + 1, i)));
    }

    @TearDown(Level.Trial)
    public void stop() {
      parallel.close();
    }
  }

  @Benchmark
  public List<Integer> secondCall(Warm warm) {
    return warm.parallel.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x + 1, i)));
  }
}
