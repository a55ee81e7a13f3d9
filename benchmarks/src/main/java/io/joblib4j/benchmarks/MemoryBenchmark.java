package io.joblib4j.benchmarks;

import io.joblib4j.CallResult;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
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
 * Memory on the local store: a cache hit on a small result, on a 256 MiB NDArray with and without
 * memory-mapping, and a miss that computes and stores a small result — each beside the raw cost of
 * reading (or durably writing) the same file. Sample mode, so the report gives medians.
 * {@code folder=disk} is the system temp folder; {@code folder=shm} is /dev/shm, where fsync costs
 * nothing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class MemoryBenchmark {
  static final int BIG = 32 << 20; // 32 Mi doubles = 256 MiB

  @Param({"disk"})
  public String folder;

  private Path dir;
  private MemoizedFn1<Integer, double[]> small;
  private MemoizedFn1<Integer, NDArray> big;
  private MemoizedFn1<Integer, NDArray> bigMapped;
  private Path smallFile;
  private Path bigFile;
  private int missKey;

  public static double[] smallResult(int seed) {
    double[] r = new double[16];
    for (int i = 0; i < r.length; i++) {
      r[i] = seed + i;
    }
    return r;
  }

  public static NDArray bigResult(int seed) {
    NDArray a = NDArray.zeros(DType.FLOAT64, BIG);
    a.fill(seed);
    return a;
  }

  @Setup
  public void setUp() throws IOException {
    Path base = folder.equals("shm") ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
    dir = Files.createTempDirectory(base, "jl4j-membench");
    Memory memory = Memory.builder(dir).verbose(0).build();
    small = memory.cache(MemoryBenchmark::smallResult);
    big = memory.cache(MemoryBenchmark::bigResult);
    bigMapped = big.mmapMode(MmapMode.READ_ONLY);
    small.apply(1);
    big.apply(1);
    smallFile = find(dir, 0);
    bigFile = find(dir, BIG * 8L);
  }

  private static Path find(Path dir, long atLeast) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().equals("output.jl4j"))
          .filter(p -> atLeast < 1_000 ? size(p) < 1_000 : size(p) >= atLeast)
          .min(Comparator.comparingLong(MemoryBenchmark::size)).orElseThrow();
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public double[] hitSmall() {
    return small.apply(1);
  }

  @Benchmark
  public byte[] hitSmallBaselineReadFile() throws IOException {
    return Files.readAllBytes(smallFile);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Measurement(iterations = 10)
  @Warmup(iterations = 2)
  public NDArray hit256MiB() {
    return big.apply(1);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Measurement(iterations = 10)
  @Warmup(iterations = 2)
  public ByteBuffer hit256MiBBaselineReadFile() throws IOException {
    try (FileChannel ch = FileChannel.open(bigFile, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate((int) ch.size());
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // read it all
      }
      return b;
    }
  }

  @Benchmark
  public NDArray hit256MiBMapped() {
    return bigMapped.apply(1);
  }

  @Benchmark
  public MappedByteBuffer hit256MiBMappedBaselineMapFile() throws IOException {
    try (FileChannel ch = FileChannel.open(bigFile, StandardOpenOption.READ)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
    }
  }

  @Setup(Level.Invocation)
  public void nextMissKey() {
    missKey++;
  }

  @Benchmark
  public CallResult<double[]> missAndStoreSmall() {
    return small.call(missKey % 1_000 + 2);
  }

  /** Baseline: the same bytes written durably (write + fsync) to a new file and renamed. */
  @Benchmark
  public Path missAndStoreSmallBaselineWriteFile() throws IOException {
    byte[] bytes = Files.readAllBytes(smallFile);
    Path tmp = dir.resolve("baseline.tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(ByteBuffer.wrap(bytes));
      ch.force(true);
    }
    return Files.move(tmp, dir.resolve("baseline"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
