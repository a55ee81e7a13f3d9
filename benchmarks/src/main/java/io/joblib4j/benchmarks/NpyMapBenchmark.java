package io.joblib4j.benchmarks;

import io.joblib4j.Joblib;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * Mapping a numpy {@code .npy} of 256 MiB of doubles with {@code Joblib.load(file, READ_ONLY)}
 * (issue 36: "mapped in under a millisecond after the first map"): the first map in a fresh JVM (one
 * shot per fork: the numpy reader's classes load and run for the first time), and later maps in a
 * warm one; each beside a plain {@code FileChannel.map} of the data region measured the same way.
 * numpy's format has no checksum, so no map reads the data. Each map is unmapped at once (see {@link
 * Unmap}).
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NpyMapBenchmark {
  /** A {@code .npy} of {@code mib} MiB of random doubles, written by joblib4j in numpy's format. */
  @State(Scope.Benchmark)
  public static class Npy {
    @Param({"256"})
    int mib;
    Path dir;
    Path file;
    long offset;
    long bytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      dir = Files.createTempDirectory("jl4j-npy");
      file = dir.resolve("big.npy");
      SplittableRandom r = new SplittableRandom(7);
      NDArray a = NDArray.createMapped(file, io.joblib4j.array.DType.FLOAT64, (long) mib << 17);
      for (long i = 0; i < a.size(); i++) {
        a.setDouble(r.nextDouble(), i);
      }
      offset = a.mapping().orElseThrow().byteOffset();
      bytes = a.nbytes();
      a.close();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    }
  }

  private static long unmapAll(NDArray a) {
    long n = a.size();
    for (ByteBuffer b : io.joblib4j.internal.array.ArrayAccess.get().storage(a).segments()) {
      Unmap.unmap(b);
    }
    return n;
  }

  private static long baseline(Npy n) throws IOException {
    try (FileChannel ch = FileChannel.open(n.file, StandardOpenOption.READ)) {
      MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, n.offset, n.bytes);
      long c = b.capacity();
      Unmap.unmap(b);
      return c;
    }
  }

  /** The first map in a fresh JVM. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Fork(value = 10, jvmArgsAppend = {"-Xmx1g"})
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  public long firstMap(Npy n) {
    return unmapAll(Joblib.load(n.file, MmapMode.READ_ONLY));
  }

  /**
   * A small {@code .npy} mapped once in the fork's setup (not timed), so that joblib4j's classes are
   * loaded: what is left of the first map is what a new file costs.
   */
  @State(Scope.Benchmark)
  public static class WarmClasses {
    @Setup(Level.Trial)
    public void setUp(Npy n) throws IOException {
      Path small = n.dir.resolve("small.npy");
      NDArray.createMapped(small, io.joblib4j.array.DType.FLOAT64, 4).close();
      unmapAll(Joblib.load(small, MmapMode.READ_ONLY));
      Files.delete(small);
    }
  }

  /** The first map of the 256 MiB file in a fresh JVM that has mapped another {@code .npy} before. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Fork(value = 10, jvmArgsAppend = {"-Xmx1g"})
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  public long firstMapOfTheFileWithClassesLoaded(Npy n, WarmClasses w) {
    return unmapAll(Joblib.load(n.file, MmapMode.READ_ONLY));
  }

  /** Baseline of the first map: the first {@code FileChannel.map} of the region in a fresh JVM. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Fork(value = 10, jvmArgsAppend = {"-Xmx1g"})
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  public long firstBaselineMap(Npy n) throws IOException {
    return baseline(n);
  }

  /** A later map, in a warm JVM. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
  public long laterMap(Npy n) {
    return unmapAll(Joblib.load(n.file, MmapMode.READ_ONLY));
  }

  /** Baseline of a later map: {@code FileChannel.map} of the same region in a warm JVM. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
  public long laterBaselineMap(Npy n) throws IOException {
    return baseline(n);
  }
}
