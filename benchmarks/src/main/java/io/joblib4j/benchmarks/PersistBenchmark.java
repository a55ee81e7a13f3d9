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
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms6g"})
public class PersistBenchmark {
  static final int DOUBLES = 128 << 20; // 1 GiB

  /** The array and a scratch directory; each file is made by the state of the benchmarks that read it. */
  @State(Scope.Benchmark)
  public static class Data {
    double[] array;
    Path dir;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      SplittableRandom r = new SplittableRandom(7);
      array = new double[DOUBLES];
      for (int i = 0; i < DOUBLES; i++) {
        array[i] = r.nextDouble();
      }
      dir = Files.createTempDirectory("jl4j-bench");
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
  }

  /** Files written once per trial (only for the benchmarks that load them). */
  @State(Scope.Benchmark)
  public static class Raw {
    Path file;

    @Setup(Level.Trial)
    public void setUp(Data d) {
      file = d.dir.resolve("a.jl4j");
      Joblib.dump(d.array, file);
    }
  }

  @State(Scope.Benchmark)
  public static class Lz4 {
    Path file;

    @Setup(Level.Trial)
    public void setUp(Data d) {
      file = d.dir.resolve("a.jl4j.lz4");
      Joblib.dump(d.array, file);
    }
  }

  @State(Scope.Benchmark)
  public static class Zlib {
    Path file;

    @Setup(Level.Trial)
    public void setUp(Data d) {
      file = d.dir.resolve("a.jl4j.z");
      Joblib.dump(d.array, file, Compress.of("zlib", 3));
    }
  }

  @State(Scope.Benchmark)
  public static class Plain {
    Path file;

    @Setup(Level.Trial)
    public void setUp(Data d) throws IOException {
      file = d.dir.resolve("a.bin");
      write(d.array, file);
    }
  }

  @State(Scope.Benchmark)
  public static class Mapped {
    Path file;
    long offset;

    @Setup(Level.Trial)
    public void setUp(Data d) {
      file = d.dir.resolve("nd.jl4j");
      Joblib.dump(NDArray.of(d.array), file);
      NDArray m = Joblib.load(file, MmapMode.READ_ONLY);
      offset = m.mapping().orElseThrow().byteOffset();
    }
  }

  @Benchmark
  public void dumpRaw(Data d) {
    Joblib.dump(d.array, d.dir.resolve("out.jl4j"));
  }

  @Benchmark
  public double[] loadRaw(Raw f) {
    return Joblib.load(f.file);
  }

  /** Baseline: the same bytes through a FileChannel, no header, checksum or rename. */
  @Benchmark
  public void baselineWrite(Data d) throws IOException {
    write(d.array, d.dir.resolve("out.bin"));
  }

  static void write(double[] array, Path baseline) throws IOException {
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
  public double[] baselineRead(Plain f) throws IOException {
    Path baseline = f.file;
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
  public void dumpLz4(Data d) {
    Joblib.dump(d.array, d.dir.resolve("out.jl4j.lz4"));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public double[] loadLz4(Lz4 f) {
    return Joblib.load(f.file);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public void dumpZlib(Data d) {
    Joblib.dump(d.array, d.dir.resolve("out.jl4j.z"), Compress.of("zlib", 3));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public double[] loadZlib(Zlib f) {
    return Joblib.load(f.file);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public long mmapLoad(Mapped f) {
    NDArray a = Joblib.load(f.file, MmapMode.READ_ONLY);
    long n = a.size();
    for (ByteBuffer b : io.joblib4j.internal.array.ArrayAccess.get().storage(a).segments()) {
      Unmap.unmap(b);
    }
    return n;
  }

  /** Baseline: map the same 1 GiB region directly. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public long baselineMap(Mapped f) throws IOException {
    try (FileChannel ch = FileChannel.open(f.file, StandardOpenOption.READ)) {
      MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, f.offset, 8L * DOUBLES);
      long n = b.capacity();
      Unmap.unmap(b);
      return n;
    }
  }
}
