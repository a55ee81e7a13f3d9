package io.joblib4j.benchmarks;

import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A memory-mapped load of an NDArray dump: the first map of a version of the file, a repeated map,
 * a map with the check turned off, and a plain {@code FileChannel.map} of the same region. Each map
 * is unmapped at once (see {@link Unmap}). Since format version 2 (issue 39) a map checks blocks
 * only as they are read, so the first and repeated maps read no data; until then (issue 19.1) the
 * first map of a version read the whole file through its CRC32C. {@code lazymaps.LazyMapHarness}
 * measures first maps and scans of files larger than memory.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class MappedLoadBenchmark {
  private static final LoadOptions UNCHECKED =
      LoadOptions.builder().mmapMode(MmapMode.READ_ONLY).verifyMappedData(false).build();

  /** A dump of one NDArray of {@code mib} MiB of random doubles, older than the 2 s racy window. */
  @State(Scope.Benchmark)
  public static class Dump {
    @Param({"256"})
    int mib;
    Path dir;
    Path file;
    long offset;
    long bytes;
    long version;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      SplittableRandom r = new SplittableRandom(7);
      double[] d = new double[mib << 17];
      for (int i = 0; i < d.length; i++) {
        d[i] = r.nextDouble();
      }
      dir = Files.createTempDirectory("jl4j-mapped");
      file = dir.resolve("nd.jl4j");
      Joblib.dump(NDArray.of(d), file);
      Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
      NDArray m = Joblib.load(file, UNCHECKED);
      offset = m.mapping().orElseThrow().byteOffset();
      bytes = m.nbytes();
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

  /** The first map of a version of the file: its modification time moves back a millisecond each time. */
  @Benchmark
  public long firstMapChecked(Dump d) throws IOException {
    Files.setLastModifiedTime(d.file, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000 - ++d.version));
    return unmapAll(Joblib.load(d.file, MmapMode.READ_ONLY));
  }

  /** A map of a version already checked in this JVM. */
  @Benchmark
  public long repeatedMap(Dump d) {
    return unmapAll(Joblib.load(d.file, MmapMode.READ_ONLY));
  }

  /** {@code verifyMappedData(false)}: zero-cost maps. */
  @Benchmark
  public long uncheckedMap(Dump d) {
    return unmapAll(Joblib.load(d.file, UNCHECKED));
  }

  /** Baseline: map the same region directly. */
  @Benchmark
  public long baselineMap(Dump d) throws IOException {
    try (FileChannel ch = FileChannel.open(d.file, StandardOpenOption.READ)) {
      MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, d.offset, d.bytes);
      long n = b.capacity();
      Unmap.unmap(b);
      return n;
    }
  }

  /** Baseline of the first map: map the region and read it once through CRC32C, the least a check costs. */
  @Benchmark
  public long baselineMapAndCrc(Dump d) throws IOException {
    try (FileChannel ch = FileChannel.open(d.file, StandardOpenOption.READ)) {
      MappedByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, d.offset, d.bytes);
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(b.duplicate());
      Unmap.unmap(b);
      return crc.getValue();
    }
  }
}
