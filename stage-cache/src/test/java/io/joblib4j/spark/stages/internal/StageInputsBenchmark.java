package io.joblib4j.spark.stages.internal;

import io.joblib4j.hdfs.MiniDfs;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * BENCHMARKS.md, "Stage inputs listed at call time": the key of a stage whose argument reads 1,000
 * Parquet files on a MiniDFSCluster, which lists the input folder again at every call, beside a
 * plain {@code FileSystem.listStatus} of that folder, and the listing of the key alone; with input
 * checksums too. Rounds alternate the contenders; medians and minima are printed, with the
 * client's read operations (NameNode calls) per contender.
 *
 * {@code mvn -B -q -pl stage-cache -am -Pstage-inputs-bench verify -DskipTests}
 */
public final class StageInputsBenchmark {
  private StageInputsBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("bench.rounds", 30);
    int files = Integer.getInteger("bench.files", 1000);
    MiniDFSCluster dfs = MiniDfs.start(1, new Configuration());
    SparkSession spark = SparkSession.builder().master("local[2]").appName("stage-inputs-bench")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    try {
      String root = MiniDfs.uri(dfs, "/bench").toString();
      String many = root + "/many";
      spark.range(0, 100L * files, 1, files).write().parquet(many);
      Dataset<Row> wide = spark.read().parquet(many);
      StageSpec spec = StageSpec.of((io.joblib4j.fn.Fn1<Dataset<Row>, Dataset<Row>>) StageBenchmark::derive, 1);
      StageKeys plain = keys(spark, false);
      StageKeys checksummed = keys(spark, true);
      Configuration conf = spark.sparkContext().hadoopConfiguration();
      Path folder = new Path(many);
      FileSystem fs = folder.getFileSystem(conf);
      List<Long> key = new ArrayList<>();
      List<Long> listing = new ArrayList<>();
      List<Long> baseline = new ArrayList<>();
      List<Long> keySums = new ArrayList<>();
      long[] ops = new long[4];
      for (int r = 0; r < rounds + 5; r++) {
        long o0 = readOps(fs);
        long t0 = System.nanoTime();
        plain.keyOf(spec, new Object[] {wide});
        long t1 = System.nanoTime();
        long o1 = readOps(fs);
        StoredFiles.listAll(conf, List.of(folder));
        long t2 = System.nanoTime();
        long o2 = readOps(fs);
        fs.listStatus(folder);
        long t3 = System.nanoTime();
        long o3 = readOps(fs);
        boolean sums = r % 5 == 0; // a checksum per file asks the DataNode too: every fifth round
        long t4 = System.nanoTime();
        if (sums) {
          checksummed.keyOf(spec, new Object[] {wide});
        }
        long t5 = System.nanoTime();
        long o4 = readOps(fs);
        if (r >= 5) { // the first five warm the JIT, the NameNode and Spark's caches
          key.add((t1 - t0) / 1_000);
          listing.add((t2 - t1) / 1_000);
          baseline.add((t3 - t2) / 1_000);
          ops[0] += o1 - o0;
          ops[1] += o2 - o1;
          ops[2] += o3 - o2;
          if (sums) {
            keySums.add((t5 - t4) / 1_000);
            ops[3] += o4 - o3;
          }
        }
      }
      System.out.printf("%d files, %d rounds after 5 warm-up, load average at the end %s%n",
          wide.inputFiles().length, key.size(), loadAverage());
      print("key of the stage (plan, code, the folder listed again, 1,000 files keyed)", key, ops[0]);
      print("  its listing alone (StoredFiles.listAll)", listing, ops[1]);
      print("baseline: FileSystem.listStatus of the folder", baseline, ops[2]);
      print("key with inputChecksums(true) (getFileChecksum per file)", keySums, ops[3]);
    } finally {
      spark.stop();
      dfs.shutdown();
    }
  }

  private static StageKeys keys(SparkSession spark, boolean checksums) {
    return new StageKeys(spark, new StageSettings("parquet", null, 0, 0, null, Duration.ofDays(1), Clock.systemUTC(),
        checksums));
  }

  /** The client's read operations on HDFS so far: each a NameNode call (a listing's batch of up to 1,000 is one). */
  private static long readOps(FileSystem fs) {
    return FileSystem.getAllStatistics().stream().filter(s -> s.getScheme().equals(fs.getScheme()))
        .mapToLong(FileSystem.Statistics::getReadOps).sum();
  }

  private static void print(String name, List<Long> micros, long ops) {
    List<Long> s = new ArrayList<>(micros);
    s.sort(null);
    System.out.printf("%s: median %.1f ms, min %.1f ms, %.1f NameNode read calls each%n", name,
        s.get(s.size() / 2) / 1000.0, s.get(0) / 1000.0, (double) ops / micros.size());
  }

  private static String loadAverage() {
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
