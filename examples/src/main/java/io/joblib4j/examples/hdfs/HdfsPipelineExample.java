package io.joblib4j.examples.hdfs;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.ChunkedArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A Spark job that caches a pipeline step on HDFS (or any Hadoop store) and fills one shared output
 * array from its executors.
 *
 * <pre>
 * spark-submit --class io.joblib4j.examples.hdfs.HdfsPipelineExample \
 *   --jars joblib4j-engine-api.jar,joblib4j-hdfs-store.jar,... joblib4j-examples.jar hdfs://namenode:8020/user/me/joblib4j
 * </pre>
 *
 * Run it twice: the second run loads every feature from the cache instead of computing it. README
 * ("HDFS and other Hadoop stores") shows a run on a MiniDFSCluster started for the purpose.
 */
public final class HdfsPipelineExample {
  private static final int SHARDS = 8;
  private static final int ROWS = 2_000;
  private static final int COLS = 64;
  private static final int ROWS_PER_CHUNK = 250;

  private HdfsPipelineExample() {}

  /** The expensive pipeline step: a feature vector per shard (stands in for parsing, joins, models). */
  public static double[] features(int shard) {
    double[] f = new double[COLS];
    for (int i = 0; i < 3_000_000; i++) {
      f[i % COLS] += Math.sin(shard + i * 1e-3);
    }
    return f;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: HdfsPipelineExample <store location, e.g. hdfs://namenode:8020/user/me/joblib4j> [spark master]");
      System.exit(2);
    }
    SparkConf conf = new SparkConf().setAppName("joblib4j HDFS pipeline");
    if (args.length > 1) {
      conf.setMaster(args[1]);
    } else if (!conf.contains("spark.master")) {
      conf.setMaster("local[2]");
    }
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      run(sc, args[0]);
    }
  }

  /** The job: a cached step on the executors, then a chunked array they fill. */
  public static void run(JavaSparkContext sc, String location) throws Exception {
    // 1. a pipeline step cached on the cluster store, shared by the driver and every executor
    Memory memory = Memory.builder(location + "/memory").verbose(0).build();
    MemoizedFn1<Integer, double[]> step = memory.cache(HdfsPipelineExample::features);
    for (int run = 1; run <= 2; run++) {
      long t0 = System.nanoTime();
      List<double[]> shards = sc.parallelize(IntStream.range(0, SHARDS).boxed().toList(), SHARDS).map(step::apply).collect();
      System.out.printf("run %d: %d feature vectors in %d ms (%s)%n", run, shards.size(), (System.nanoTime() - t0) / 1_000_000,
          run == 1 ? "computed, or loaded if an earlier job stored them" : "loaded from " + location + "/memory");
    }

    // 2. seed 004's shared output array at cluster scale: each task writes its own rows
    ChunkedArray scores = ChunkedArray.create(location + "/arrays", "scores", DType.FLOAT64, ROWS_PER_CHUNK, ROWS, COLS);
    long written = sc.parallelize(IntStream.range(0, scores.chunks()).boxed().toList(), scores.chunks()).filter(i -> {
      double[] f = step.apply(i % SHARDS); // executors hit the cache for the step's output
      NDArray rows = scores.newChunk(i);
      for (int r = 0; r < rows.shape(0); r++) {
        for (int c = 0; c < COLS; c++) {
          rows.setDouble(f[c] * (scores.firstRow(i) + r), r, c);
        }
      }
      return scores.writeChunk(i, rows); // false if this chunk was there already (a rerun)
    }).count();
    Path local = Files.createTempFile("scores-", ".f64");
    try (NDArray all = scores.toMapped(local)) {
      System.out.printf("scores: %s, %d chunks written now, mapped from %s; scores[1999, 63] = %.3f%n",
          java.util.Arrays.toString(all.shape()), written, local, all.getDouble(ROWS - 1, COLS - 1));
    }
    Files.deleteIfExists(local);
  }
}
