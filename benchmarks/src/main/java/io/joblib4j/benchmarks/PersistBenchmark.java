package io.joblib4j.benchmarks;

import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * dump/load of a 1 GiB double[] (random, so incompressible, as in joblib-bench), raw and with lz4
 * and zlib, beside a plain FileChannel write/read of the same bytes (through a 1 MiB direct buffer,
 * the least a double[] needs to reach a file); mmap load of a 1 GiB NDArray beside FileChannel.map
 * of the same region. Files go to java.io.tmpdir (the page cache, as joblib-bench's did).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms6g"})
public class PersistBenchmark {
  static final int DOUBLES = 128 << 20; // 1 GiB

  double[] array;
  Path dir;
  Path raw;
  Path lz4;
  Path zlib;
  Path baseline;
  Path ndFile;
  long ndOffset;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    SplittableRandom r = new SplittableRandom(7);
    array = new double[DOUBLES];
    for (int i = 0; i < DOUBLES; i++) {
      array[i] = r.nextDouble();
    }
    dir = Files.createTempDirectory("jl4j-bench");
    raw = dir.resolve("a.jl4j");
    lz4 = dir.resolve("a.jl4j.lz4");
    zlib = dir.resolve("a.jl4j.z");
    baseline = dir.resolve("a.bin");
    ndFile = dir.resolve("nd.jl4j");
    Joblib.dump(array, raw);
    Joblib.dump(array, lz4);
    Joblib.dump(array, zlib, Compress.of("zlib", 3));
    baselineWrite();
    NDArray nd = NDArray.of(array);
    Joblib.dump(nd, ndFile);
    NDArray mapped = Joblib.load(ndFile, MmapMode.READ_ONLY);
    ndOffset = mapped.mapping().orElseThrow().byteOffset();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }

  @Benchmark
  public void dumpRaw() {
    Joblib.dump(array, raw);
  }

  @Benchmark
  public double[] loadRaw() {
    return Joblib.load(raw);
  }

  /** Baseline: the same bytes through a FileChannel, no header, checksum or rename. */
  @Benchmark
  public void baselineWrite() throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    DoubleBuffer view = buf.asDoubleBuffer();
    int per = view.capacity();
    try (FileChannel ch = FileChannel.open(baseline, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (int off = 0; off < DOUBLES; off += per) {
        int n = Math.min(per, DOUBLES - off);
        view.clear();
        view.put(array, off, n);
        buf.clear().limit(n * 8);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
    }
  }

  /** Baseline: read the same bytes back into a new double[]. */
  @Benchmark
  public double[] baselineRead() throws IOException {
    double[] out = new double[DOUBLES];
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    int per = buf.capacity() / 8;
    try (FileChannel ch = FileChannel.open(baseline, StandardOpenOption.READ)) {
      for (int off = 0; off < DOUBLES; off += per) {
        int n = Math.min(per, DOUBLES - off);
        buf.clear().limit(n * 8);
        while (buf.hasRemaining()) {
          if (ch.read(buf) < 0) {
            throw new IOException("short file");
          }
        }
        buf.flip();
        buf.asDoubleBuffer().get(out, off, n);
      }
    }
    return out;
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public void dumpLz4() {
    Joblib.dump(array, lz4);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public double[] loadLz4() {
    return Joblib.load(lz4);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public void dumpZlib() {
    Joblib.dump(array, zlib, Compress.of("zlib", 3));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public double[] loadZlib() {
    return Joblib.load(zlib);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public NDArray mmapLoad() {
    return Joblib.load(ndFile, MmapMode.READ_ONLY);
  }

  /** Baseline: map the same 1 GiB region directly. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public MappedByteBuffer baselineMap() throws IOException {
    try (FileChannel ch = FileChannel.open(ndFile, StandardOpenOption.READ)) {
      return ch.map(FileChannel.MapMode.READ_ONLY, ndOffset, 8L * DOUBLES);
    }
  }
}
