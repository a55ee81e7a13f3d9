package io.joblib4j.benchmarks;

import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.examples.SharedOutputArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Seed 004's workload at 10,000 x 1,000: a (2, N, M) array of sums and products filled by rows, one
 * task per row ({@link SharedOutputArray#fillRow}). Sequentially into a heap array (the baseline),
 * on 2 threads into the same heap array, and on 2 worker JVMs into a READ_WRITE array mapped from
 * {@code /dev/shm} that they write in place. (The seed's Python: 12.4 s as a loop, 7.7 s with
 * joblib and a memmap.) The arrays are made once, so page faults of fresh memory are not counted.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class SharedOutputArrayBenchmark {
  static final int N = 10_000;
  static final int M = 1_000;

  private final double[] a = SharedOutputArray.range(N);
  private final double[] b = SharedOutputArray.range(M);
  private NDArray heap;
  private NDArray mapped;
  private Path file;
  private Parallel processes;
  private Parallel threads;

  @Setup
  public void setUp() throws IOException {
    heap = NDArray.zeros(DType.FLOAT64, 2, N, M);
    heap.fill(1); // touch every page now
    Path shm = Path.of("/dev/shm");
    file = Files.createTempFile(Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
        "seed004-", ".f64");
    mapped = NDArray.createMapped(file, DType.FLOAT64, 2, N, M);
    mapped.fill(1);
    processes = Parallel.builder().backend("processes").nJobs(2).build();
    threads = Parallel.builder().backend("threads").nJobs(2).build();
  }

  @TearDown
  public void tearDown() throws IOException {
    processes.close();
    threads.close();
    mapped.close();
    Files.deleteIfExists(file);
  }

  @Benchmark
  public NDArray sequential() {
    for (int i = 0; i < N; i++) {
      SharedOutputArray.fillRow(i, a, b, heap);
    }
    return heap;
  }

  @Benchmark
  public NDArray threads() {
    SharedOutputArray.fill(threads, heap, a, b);
    return heap;
  }

  @Benchmark
  public NDArray processes() {
    SharedOutputArray.fill(processes, mapped, a, b);
    return mapped;
  }
}
