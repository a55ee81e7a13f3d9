package io.joblib4j.benchmarks;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What a bytes limit adds to a miss + store (a new key each call: compute a small result, publish
 * it): {@code limit=none} beside {@code limit=50G} (never reached: the running total's bookkeeping
 * only) and {@code limit=2M} (the cache sits at the limit: pruning, and a listing of its ~500
 * entries every ~50 stores, amortized), in the same run. {@code folder=disk} is the temp folder,
 * {@code shm} /dev/shm (no fsync cost, so the bookkeeping shows more).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 6, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class CacheLimitBenchmark {
  @Param({"none", "50G", "2M"})
  public String limit;

  @Param({"disk"})
  public String folder;

  private Path dir;
  private MemoizedFn1<Integer, double[]> f;
  private int key;

  public static double[] result(int seed) {
    double[] r = new double[500]; // about 4 KB stored
    java.util.Arrays.fill(r, seed);
    return r;
  }

  @Setup(Level.Iteration)
  public void setUp() throws IOException {
    Path base = folder.equals("shm") ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
    dir = Files.createTempDirectory(base, "jl4j-limitbench");
    Memory.Builder b = Memory.builder(dir).verbose(0);
    if (!limit.equals("none")) {
      b.bytesLimit(limit);
    }
    f = b.build().cache(CacheLimitBenchmark::result);
    if (limit.equals("2M")) {
      for (int i = 0; i < 600; i++) {
        f.apply(--key); // fill up to the limit first
      }
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public double[] missAndStore() {
    return f.apply(++key);
  }
}
