package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;

import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spark.stages.Stage1;
import io.joblib4j.spark.stages.StageCache;
import io.joblib4j.spark.stages.StageEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * BENCHMARKS.md, "Pipeline stages": the stage cache beside plain Spark in the same run, on a
 * MiniDFSCluster and local[2]. Rounds alternate the contenders, so that the machine's drift hits
 * both; medians and minima are printed.
 *
 * <ul>
 *   <li>a hit (key, record, verification, read with the stored schema) and a sum over its rows, vs
 *       {@code spark.read().parquet(the same folder)} and the same sum;
 *   <li>a miss ({@code refresh()}: compute, write, publish, read back) and the sum, vs {@code
 *       df.write().parquet(path)}, a read of it and the sum;
 *   <li>the key of a plan over 1,000 input files;
 *   <li>the store's publish of a record on HDFS (what a miss adds after its write), with the store's
 *       settings beside Hadoop's client defaults for closing a file.
 * </ul>
 *
 * {@code mvn -B -q -pl stage-cache -am -Pstages-bench verify -DskipTests}
 */
public final class StageBenchmark {
  private StageBenchmark() {}

  /** The stage: a filter and two derived columns over the input. */
  public static Dataset<Row> derive(Dataset<Row> raw) {
    return raw.filter(col("id").mod(7).notEqual(0)).withColumn("a", col("id").multiply(3)).withColumn("b",
        col("id").mod(1000));
  }

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("bench.rounds", 7);
    long rows = Long.getLong("bench.rows", 5_000_000L);
    MiniDFSCluster dfs = MiniDfs.start(1, new org.apache.hadoop.conf.Configuration());
    SparkSession spark = SparkSession.builder().master("local[2]").appName("stage-bench")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
    try {
      String root = MiniDfs.uri(dfs, "/bench").toString();
      String input = root + "/raw";
      spark.range(0, rows, 1, 8).withColumn("x", col("id").multiply(2)).write().parquet(input);
      StageCache stages = StageCache.builder(spark, root + "/cache").build();
      Stage1<Dataset<Row>> stage = stages.cache(StageBenchmark::derive);
      stage.apply(spark.read().parquet(input)).count(); // stored; and warms both paths up
      StageEntry entry = stages.entries().get(0);
      String plainOut = root + "/plain";

      StageRunner keys0 = new StageRunner(spark, io.joblib4j.spi.Stores.open(root + "/cache", java.util.Map.of()),
          new StageSettings("parquet", null, 0, 0, null, java.time.Duration.ofDays(1), java.time.Clock.systemUTC()));
      StageSpec deriveSpec = StageSpec.of((io.joblib4j.fn.Fn1<Dataset<Row>, Dataset<Row>>) StageBenchmark::derive, 1);
      List<Long> key = new ArrayList<>();
      List<Long> hit = new ArrayList<>();
      List<Long> read = new ArrayList<>();
      List<Long> miss = new ArrayList<>();
      List<Long> write = new ArrayList<>();
      for (int r = 0; r < rounds + 1; r++) {
        long k = time(() -> keys0.keyOf(deriveSpec, new Object[] {spark.read().parquet(input)}).key().length());
        long h = time(() -> stage.apply(spark.read().parquet(input)).agg(sum("a")).first().getLong(0));
        long p = time(() -> spark.read().parquet(entry.data()).agg(sum("a")).first().getLong(0));
        long m = time(() -> stage.refresh().apply(spark.read().parquet(input)).agg(sum("a")).first().getLong(0));
        int round = r;
        long w = time(() -> {
          String out = plainOut + "/" + round;
          derive(spark.read().parquet(input)).write().parquet(out);
          return spark.read().parquet(out).agg(sum("a")).first().getLong(0);
        });
        if (r > 0) { // round 0 warms the JIT and Spark's caches
          key.add(k);
          hit.add(h);
          read.add(p);
          miss.add(m);
          write.add(w);
        }
        System.out.printf("round %d: key %d ms, hit %d ms, read %d ms, miss %d ms, write+read %d ms%n", r, k, h, p, m,
            w);
      }
      report("hit + sum", hit, "spark.read().parquet(same folder) + sum", read);
      System.out.printf("key of the hit's argument (spark.read() of the input included): median %d ms (min %d);"
          + " hit minus key vs read: ratio of medians %.2f%n", median(key), min(key),
          (double) (median(hit) - median(key)) / median(read));
      report("miss (refresh) + sum", miss, "df.write().parquet + read + sum", write);

      // the key of a plan over 1,000 input files
      String many = root + "/many";
      spark.range(0, 100_000, 1, 1000).write().parquet(many);
      Dataset<Row> wide = spark.read().parquet(many);
      StageRunner runner = new StageRunner(spark, io.joblib4j.spi.Stores.open(root + "/cache", java.util.Map.of()),
          new StageSettings("parquet", null, 0, 0, null, java.time.Duration.ofDays(1), java.time.Clock.systemUTC()));
      StageSpec spec = StageSpec.of((io.joblib4j.fn.Fn1<Dataset<Row>, Dataset<Row>>) StageBenchmark::derive, 1);
      List<Long> keys = new ArrayList<>();
      for (int r = 0; r < 25; r++) {
        long t0 = System.nanoTime();
        runner.keyOf(spec, new Object[] {wide});
        keys.add((System.nanoTime() - t0) / 1_000);
      }
      List<Long> measured = keys.subList(5, keys.size());
      System.out.printf("key of a plan over %d files: median %.1f ms, min %.1f ms (%d runs after 5 warm-up)%n",
          wide.inputFiles().length, median(measured) / 1000.0, min(measured) / 1000.0, measured.size());
      publishes(root);
      System.out.println("load average at the end: " + Arrays.toString(loadAverage()));
    } finally {
      spark.stop();
      dfs.shutdown();
    }
  }

  /** 40 publishes of a 2 KB record each way, alternating: the store's close settings vs Hadoop's defaults. */
  private static void publishes(String root) throws java.io.IOException {
    java.util.Map<String, Object> hadoops = java.util.Map.of(
        "hadoop.dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "400",
        "hadoop.dfs.client.block.write.locateFollowingBlock.retries", "5");
    try (io.joblib4j.spi.Store ours = io.joblib4j.spi.Stores.open(root + "/publish-ours", java.util.Map.of());
         io.joblib4j.spi.Store theirs = io.joblib4j.spi.Stores.open(root + "/publish-defaults", hadoops)) {
      List<Long> a = new ArrayList<>();
      List<Long> b = new ArrayList<>();
      byte[] record = new byte[2048];
      for (int i = 0; i < 45; i++) {
        String entry = "stages/s-000000000000/" + String.format("%032x", i);
        long t0 = System.nanoTime();
        ours.publish(entry, List.of(io.joblib4j.spi.EntryFile.of(StageLayout.ENTRY_FILE, record)));
        long t1 = System.nanoTime();
        theirs.publish(entry, List.of(io.joblib4j.spi.EntryFile.of(StageLayout.ENTRY_FILE, record)));
        long t2 = System.nanoTime();
        if (i >= 5) {
          a.add((t1 - t0) / 1_000_000);
          b.add((t2 - t1) / 1_000_000);
        }
      }
      report("publish of a record (store settings)", a, "the same with Hadoop's close defaults", b);
    }
  }

  private static long time(LongSupplier work) {
    long t0 = System.nanoTime();
    work.getAsLong();
    return (System.nanoTime() - t0) / 1_000_000;
  }

  private static void report(String name, List<Long> ours, String baseline, List<Long> theirs) {
    System.out.printf("%s: median %d ms (min %d); %s: median %d ms (min %d); ratio of medians %.2f, of minima %.2f%n",
        name, median(ours), min(ours), baseline, median(theirs), min(theirs),
        (double) median(ours) / median(theirs), (double) min(ours) / min(theirs));
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    s.sort(null);
    return s.get(s.size() / 2);
  }

  private static long min(List<Long> xs) {
    return xs.stream().mapToLong(Long::longValue).min().orElse(0);
  }

  private static double[] loadAverage() {
    try {
      String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    } catch (java.io.IOException | RuntimeException e) {
      return new double[0];
    }
  }
}
