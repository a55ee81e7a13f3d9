package io.joblib4j.benchmarks;

import io.joblib4j.CacheListing;
import io.joblib4j.Memory;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * {@code memory.entries()} (what {@code joblib4j ls} and {@code du} read) over a local cache of
 * {@code entries} entries in 10 functions, beside a plain recursive listing of the same tree with
 * each file's attributes ({@code Files.walkFileTree}, sizes summed) in the same run. The entries are
 * copies of a real entry written by Memory (output.jl4j and metadata.json), under random keys.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class CacheListingBenchmark {
  @Param({"100000"})
  public int entries;

  private Path dir;
  private Memory memory;

  public static double[] result(int seed) {
    return new double[] {seed, seed + 1, seed + 2};
  }

  @Setup
  public void setUp() throws IOException {
    // one tree for both benchmarks (each runs in its own fork): made by the first, kept for the second;
    // delete it afterwards (tearDown cannot tell which fork is the last)
    dir = Path.of(System.getProperty("java.io.tmpdir"), "jl4j-listbench-" + entries);
    memory = Memory.builder(dir).verbose(0).build();
    if (Files.exists(dir.resolve("complete"))) {
      return;
    }
    if (Files.exists(dir)) {
      deleteTree(dir);
    }
    memory = Memory.builder(dir).verbose(0).build();
    memory.cache(CacheListingBenchmark::result).apply(1);
    Path folder;
    Path entry;
    try (Stream<Path> s = Files.list(dir)) {
      folder = s.filter(p -> !p.getFileName().toString().startsWith(".")).findFirst().orElseThrow();
    }
    try (Stream<Path> s = Files.list(folder)) {
      entry = s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    byte[] output = Files.readAllBytes(entry.resolve("output.jl4j"));
    byte[] metadata = Files.readAllBytes(entry.resolve("metadata.json"));
    byte[] function = Files.readAllBytes(folder.resolve("function.json"));
    Random random = new Random(42);
    String name = folder.getFileName().toString();
    String stem = name.substring(0, name.lastIndexOf('-'));
    for (int f = 0; f < 10; f++) {
      Path fn = dir.resolve(stem + f + "-" + String.format("%012x", random.nextLong() & 0xffffffffffffL));
      Files.createDirectories(fn);
      Files.write(fn.resolve("function.json"), function);
      for (int i = f; i < entries; i += 10) {
        Path e = fn.resolve(String.format("%016x%016x", random.nextLong(), random.nextLong()));
        Files.createDirectory(e);
        Files.write(e.resolve("output.jl4j"), output);
        Files.write(e.resolve("metadata.json"), metadata);
      }
    }
    CacheListing l = memory.entries();
    if (l.size() != entries + 1) {
      throw new IllegalStateException("expected " + (entries + 1) + " entries, listed " + l.size());
    }
    Files.write(dir.resolve("complete"), new byte[0]);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public long memoryEntries() {
    return memory.entries().totalBytes();
  }

  /** The baseline: a plain recursive walk reading every file's attributes, sizes summed. */
  @Benchmark
  public long plainWalk() throws IOException {
    long[] total = new long[1];
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        total[0] += attrs.size();
        return FileVisitResult.CONTINUE;
      }
    });
    return total[0];
  }
}
