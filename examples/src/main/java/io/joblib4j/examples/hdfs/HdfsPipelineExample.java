package io.joblib4j.examples.hdfs;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.ChunkedArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark job that caches a pipeline step on HDFS (or any Hadoop store) and fills one shared output
 * array from its executors, with {@code Parallel} on the {@code spark} backend.
 *
 * <pre>
 * spark-submit --class io.joblib4j.examples.hdfs.HdfsPipelineExample \
 *   --jars joblib4j-spark-4-bundle_2.13-0.1.0-SNAPSHOT.jar \
 *   joblib4j-examples-0.1.0-SNAPSHOT.jar hdfs://namenode:8020/user/me/joblib4j
 * </pre>
 *
 * Run it twice: the second run loads every feature vector from the cache instead of computing it.
 * README ("HDFS and other Hadoop stores") runs it on a MiniDFSCluster started for the purpose.
 */
public final class HdfsPipelineExample {
  private static final int SHARDS = 8;
  private static final int ROWS = 2_000;
  private static final int COLS = 64;
  private static final int ROWS_PER_CHUNK = 250;

  private HdfsPipelineExample() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: HdfsPipelineExample <store location, e.g. hdfs://namenode:8020/user/me/joblib4j>");
      System.exit(2);
    }
    SparkSession spark = SparkSession.builder().appName("joblib4j HDFS pipeline").getOrCreate();
    try {
      run(args[0]);
    } finally {
      spark.stop();
    }
  }

  /** The job, on the running SparkSession: a cached step on the executors, then a chunked array they fill. */
  public static void run(String location) throws Exception {
    // 1. a pipeline step cached on the cluster store, shared by the driver and every executor
    Memory memory = Memory.builder(location + "/memory").verbose(0).build();
    MemoizedFn1<Integer, double[]> step = memory.cache(HdfsPipelineExample::features);
    ChunkedArray scores = ChunkedArray.create(location + "/arrays", "scores", DType.FLOAT64, ROWS_PER_CHUNK, ROWS, COLS);
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).build()) {
      for (int run = 1; run <= 2; run++) {
        long t0 = System.nanoTime();
        List<double[]> shards = p.run(IntStream.range(0, SHARDS).mapToObj(s -> delayed(step, s)));
        System.out.printf("run %d: %d feature vectors in %d ms (%s)%n", run, shards.size(),
            (System.nanoTime() - t0) / 1_000_000, run == 1 ? "computed, except what an earlier job stored"
                : "loaded from " + location + "/memory");
      }
      // 2. seed 004's shared output array at cluster scale: each task writes its own rows
      List<Boolean> written = p.run(IntStream.range(0, scores.chunks())
          .mapToObj(i -> delayed(HdfsPipelineExample::fillChunk, scores, step, i)));
      System.out.printf("scores: %d of %d chunks written by this run (the rest were there already)%n",
          written.stream().filter(w -> w).count(), scores.chunks());
    }
    Path local = Files.createTempFile("scores-", ".f64");
    try (NDArray all = scores.toMapped(local)) {
      System.out.printf("scores %s mapped from %s; scores[1999, 63] = %.3f%n", Arrays.toString(all.shape()), local,
          all.getDouble(ROWS - 1, COLS - 1));
    }
    Files.deleteIfExists(local);
  }

  /** The expensive pipeline step: a feature vector per shard (stands in for parsing, joins, models). */
  public static double[] features(int shard) {
    double[] f = new double[COLS];
    for (int i = 0; i < 3_000_000; i++) {
      f[i % COLS] += Math.sin(shard + i * 1e-3);
    }
    return f;
  }

  /** One task: chunk {@code i} of the scores, from the (cached) features of its shard. */
  static boolean fillChunk(ChunkedArray scores, MemoizedFn1<Integer, double[]> step, int i) {
    double[] f = step.apply(i % SHARDS); // a cache hit on the executor
    NDArray rows = scores.newChunk(i);
    for (int r = 0; r < rows.shape(0); r++) {
      for (int c = 0; c < COLS; c++) {
        rows.setDouble(f[c] * (scores.firstRow(i) + r), r, c);
      }
    }
    return scores.writeChunk(i, rows); // false when a rerun finds the chunk there already
  }
}
