package io.joblib4j.benchmarks;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.MmapMode;
import io.joblib4j.Parallel;
import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * 8 tasks that each sum one shared 400 MB array of doubles, on 2 workers (joblib: loky with
 * auto-memmapping 1.59 s, without 139 s; threads 0.25 s, sequential 0.22 s here).
 *
 * <ul>
 *   <li>{@code processesMappedNDArray}: an NDArray already mapped from {@code /dev/shm} (as {@code
 *       Joblib.load(path, READ_ONLY)} gives); workers map the same file, nothing is copied. {@code
 *       ...ReadInBulk}: the same, the task reading the mapping in bulk.
 *   <li>{@code processesHeapNDArray}: a heap NDArray, written once per call to {@code /dev/shm}
 *       (joblib's auto-memmapping), mapped read-only by the workers.
 *   <li>{@code processesDoubleArray}: a {@code double[]}, written once and read once per worker
 *       into its heap (a {@code double[]} cannot live in a mapped file); the pool keeps the file and
 *       the workers their copies while the array is unchanged, so iterations after the first reuse
 *       them ({@link KeptArrayBenchmark}).
 *   <li>{@code threads...}, {@code sequential...}: the same tasks in this JVM.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class SharedArrayBenchmark {
  static final int ELEMENTS = 50_000_000; // 400 MB
  static final int TASKS = 8;

  private double[] data;
  private NDArray heapArray;
  private NDArray mappedArray;
  private Path file;
  private Parallel processes;
  private Parallel threads;

  @Setup
  public void setUp() throws IOException {
    data = new double[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      data[i] = i % 1000;
    }
    heapArray = NDArray.of(data);
    Path shm = Path.of("/dev/shm");
    file = Files.createTempFile(Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
        "shared-", ".f64");
    try (NDArray w = NDArray.createMapped(file, DType.FLOAT64, ELEMENTS)) {
      for (int i = 0; i < ELEMENTS; i++) {
        w.setDouble(data[i], i);
      }
    }
    mappedArray = NDArray.map(file, DType.FLOAT64, MmapMode.READ_ONLY, 0, ELEMENTS);
    processes = Parallel.builder().backend("processes").nJobs(2).build();
    threads = Parallel.builder().backend("threads").nJobs(2).build();
    processes.run(List.of(delayed(() -> 0), delayed(() -> 0))); // workers up before the first iteration
  }

  @TearDown
  public void tearDown() throws IOException {
    processes.close();
    threads.close();
    mappedArray.close();
    Files.deleteIfExists(file);
  }

  static double sum(NDArray a) {
    double s = 0;
    long n = a.size();
    for (long i = 0; i < n; i++) {
      s += a.getDouble(i);
    }
    return s;
  }

  /**
   * Sums the array's elements straight from its file region, mapped as a {@link DoubleBuffer}: what
   * sharing costs when the task itself reads in bulk ({@link #sum(NDArray)} pays NDArray's
   * per-element access, about 10 ns here).
   */
  static double sumInBulk(NDArray a) throws IOException {
    ArrayMapping m = a.mapping().orElseThrow();
    try (FileChannel ch = FileChannel.open(m.path(), StandardOpenOption.READ)) {
      DoubleBuffer d = ch.map(FileChannel.MapMode.READ_ONLY, m.byteOffset(), a.nbytes())
          .order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
      double s = 0;
      for (int i = 0, n = d.limit(); i < n; i++) {
        s += d.get(i);
      }
      return s;
    }
  }

  @Benchmark
  public List<Double> processesMappedNDArrayReadInBulk() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sumInBulk, mappedArray)));
  }

  @Benchmark
  public List<Double> processesMappedNDArray() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sum, mappedArray)));
  }

  @Benchmark
  public List<Double> processesHeapNDArray() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sum, heapArray)));
  }

  @Benchmark
  public List<Double> threadsNDArray() {
    return threads.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sum, heapArray)));
  }

  @Benchmark
  public double sequentialNDArray() {
    double s = 0;
    for (int i = 0; i < TASKS; i++) {
      s += sum(heapArray);
    }
    return s;
  }

  static double sum(double[] a) {
    double s = 0;
    for (double v : a) {
      s += v;
    }
    return s;
  }

  @Benchmark
  public List<Double> processesDoubleArray() {
    return processes.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sum, data)));
  }

  @Benchmark
  public List<Double> threads() {
    return threads.run(IntStream.range(0, TASKS).mapToObj(i -> delayed(SharedArrayBenchmark::sum, data)));
  }

  @Benchmark
  public double sequential() {
    double s = 0;
    for (int i = 0; i < TASKS; i++) {
      s += sum(data);
    }
    return s;
  }
}
