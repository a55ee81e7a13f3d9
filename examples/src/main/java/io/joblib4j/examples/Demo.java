package io.joblib4j.examples;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import io.joblib4j.MemoizedFn2;
import io.joblib4j.Memory;
import io.joblib4j.MmapMode;
import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.spark.sql.SparkSession;

/**
 * The main demo: joblib4j on its embedded defaults — a local-disk cache and Spark {@code
 * local[*]} — doing what joblib users do:
 *
 * <ol>
 *   <li>a costly pipeline step cached with {@link Memory}: computed on the first run, loaded
 *       (instantly) on every run after;
 *   <li>64 independent bootstrap estimates with {@link Parallel} on the Spark backend, each a
 *       memoized task too, so a second run of the demo finds every one of them in the cache;
 *   <li>the result checkpointed with {@link Joblib#dump}, loaded back, memory-mapped, and hashed.
 * </ol>
 *
 * Run it with {@code mvn -B -q -Pdemo verify -DskipTests}; run it again to see the cache at work.
 * The cache folder is the first argument (default {@code target/joblib4j-demo-cache}).
 */
public final class Demo {
  private static final int SAMPLES = 400_000;
  private static final int BOOTSTRAPS = 64;

  private Demo() {}

  public static void main(String[] args) throws Exception {
    Path cacheDir = Path.of(args.length > 0 ? args[0] : "target/joblib4j-demo-cache").toAbsolutePath();
    Memory memory = Memory.builder(cacheDir).verbose(0).build();
    System.out.println("joblib4j demo — cache in " + cacheDir + ", Spark local[*]");
    SparkSession spark = timed("   starting Spark local[*]", () -> SparkSession.builder().master("local[*]")
        .appName("joblib4j demo").config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .getOrCreate());
    try {
      steps(memory, cacheDir);
    } finally {
      spark.stop();
    }
    System.out.println("\nRun the demo again: step 1 and every task of step 2 now come from the cache.");
  }

  private static void steps(Memory memory, Path cacheDir) throws Exception {

    System.out.println("\n1. Memory: a costly pipeline step, cached on local disk");
    MemoizedFn2<Integer, Long, NDArray> simulate = memory.cache(Demo::simulate);
    String where = simulate.checkCallInCache(SAMPLES, 42L) ? "loaded from the cache" : "computed and stored";
    NDArray data = timed("   simulate(" + SAMPLES + " samples), " + where, () -> simulate.apply(SAMPLES, 42L));
    timed("   simulate again, loaded from the cache", () -> simulate.apply(SAMPLES, 42L));

    System.out.println("\n2. Parallel on the Spark backend: " + BOOTSTRAPS + " bootstrap estimates of the mean");
    List<Double> means;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).verbose(5).build()) {
      MemoizedFn2<NDArray, Integer, Double> bootstrap = memory.cache(Demo::bootstrapMean);
      long cached = IntStream.range(0, BOOTSTRAPS).filter(seed -> bootstrap.checkCallInCache(data, seed)).count();
      System.out.println("   " + cached + " of the " + BOOTSTRAPS + " tasks are in the cache already");
      means = timed("   " + BOOTSTRAPS + " tasks on " + p.effectiveNJobs() + " Spark task slots",
          () -> p.run(IntStream.range(0, BOOTSTRAPS).mapToObj(seed -> delayed(bootstrap, data, seed))));
    }
    DoubleSummaryStatistics stats = means.stream().mapToDouble(Double::doubleValue).summaryStatistics();
    System.out.printf(Locale.ROOT, "   bootstrap means: %.4f .. %.4f (average %.4f)%n",
        stats.getMin(), stats.getMax(), stats.getAverage());

    System.out.println("\n3. dump / load / hash");
    Path file = cacheDir.resolve("checkpoint.jl4j.zst");
    timed("   dump with zstd to " + file.getFileName(), () -> {
      Joblib.dump(data, file);
      return null;
    });
    NDArray back = Joblib.load(file);
    System.out.println("   loaded back: " + back.dtype() + java.util.Arrays.toString(back.shape()) + ", equal: "
        + back.equals(data) + ", " + Files.size(file) + " bytes on disk (raw: " + data.nbytes() + ")");
    Path raw = cacheDir.resolve("checkpoint.jl4j");
    Joblib.dump(data, raw, Compress.none());
    NDArray mapped = timed("   load memory-mapped", () -> Joblib.load(raw, MmapMode.READ_ONLY));
    System.out.println("   mapped: " + mapped.isMapped() + "; equal to the original: " + mapped.equals(data));
    System.out.println("   content hash: " + Joblib.hash(data));
  }

  /** The costly step: a random walk with drift, computed slowly on purpose. */
  public static NDArray simulate(int samples, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    NDArray out = NDArray.zeros(DType.FLOAT64, samples);
    double x = 0;
    for (int i = 0; i < samples; i++) {
      double step = 0;
      for (int k = 0; k < 200; k++) { // the "expensive" part
        step += rnd.nextGaussian() / 200;
      }
      x = 0.999 * x + step;
      out.setDouble(x, i);
    }
    return out;
  }

  /** The mean of a bootstrap resample of {@code data}. */
  public static double bootstrapMean(NDArray data, int seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    long n = data.size();
    double sum = 0;
    for (long i = 0; i < n; i++) {
      sum += data.getDouble(rnd.nextLong(n));
    }
    return sum / n;
  }

  private interface Step<T> {
    T run() throws Exception;
  }

  private static <T> T timed(String what, Step<T> step) throws Exception {
    long t0 = System.nanoTime();
    T result = step.run();
    double ms = (System.nanoTime() - t0) / 1e6;
    System.out.printf(Locale.ROOT, "%s: %s%n", what, ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000)
        : String.format(Locale.ROOT, "%.1f ms", ms));
    return result;
  }
}
