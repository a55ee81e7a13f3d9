package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spark.stages.StageCache;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import io.joblib4j.hdfs.LocalCluster;
import io.joblib4j.hdfs.bench.NameNodeRpcs;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stage cache on {@code s3a://} (hadoop-aws 3.5 against S3Proxy, a real S3 API server in a JVM
 * of its own), from a driver of {@code local-cluster[2,1,1024]} whose executors, other JVMs, write
 * the stage's Parquet files to S3. The requests are counted at the server, in front of it, so the
 * executors' count too; each operation is counted beside plain Spark doing the same work (BENCHMARKS.md,
 * "Object stores").
 */
class StageCacheOnS3IT {
  /** The even ids of 0..999, doubled: sum of 2 * (0 + 2 + ... + 998). */
  private static final long EXPECTED_SUM = 2L * 249_500;
  private static S3Server s3;
  private static SparkSession spark;
  private static String input;

  @BeforeAll
  static void start() {
    s3 = S3Server.startCounting();
    SparkConf conf = LocalCluster.conf("joblib4j-stage-cache-s3-it");
    // the S3A settings as a cluster gives them: spark.hadoop.*, which reach the executors too
    Configuration s3a = s3.conf(true);
    for (Map.Entry<String, String> e : s3a) {
      if (e.getKey().startsWith("fs.s3a.")) {
        conf.set("spark.hadoop." + e.getKey(), s3a.get(e.getKey()));
      }
    }
    spark = SparkSession.builder().config(conf).getOrCreate();
    input = s3.newLocation("raw").toString();
    spark.range(0, 1000, 1, 4).write().parquet(input);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  private static Dataset<Row> raw() {
    return spark.read().parquet(input);
  }

  private static long sumOf(Dataset<Row> ds) {
    return ds.agg(sum("twice")).first().getLong(0);
  }

  @Test
  void executorsWriteAMissToS3AndALaterCallHitsItWithoutWritingEveryRequestCounted() throws Exception {
    String location = s3.newLocation("stages").toString();
    ChildStages.CALLS.set(0);

    Map<String, Long> before = s3.requests();
    Dataset<Row> first = StageCache.at(spark, location).cache(ChildStages::clean).apply(raw());
    assertThat(sumOf(first)).isEqualTo(EXPECTED_SUM);
    Map<String, Long> miss = NameNodeRpcs.delta(before, s3.requests());

    before = s3.requests();
    Dataset<Row> again = StageCache.at(spark, location).cache(ChildStages::clean).apply(raw());
    assertThat(sumOf(again)).isEqualTo(EXPECTED_SUM);
    Map<String, Long> hit = NameNodeRpcs.delta(before, s3.requests());
    assertThat(ChildStages.CALLS).as("the second call computes nothing").hasValue(1);
    assertThat(again.inputFiles()).allMatch(f -> f.startsWith(location));

    // plain Spark doing the same work: the stage's result written and read back; then read alone
    String plainOut = s3.newLocation("plain").toString();
    before = s3.requests();
    ChildStages.clean(raw()).write().parquet(plainOut);
    assertThat(sumOf(spark.read().parquet(plainOut))).isEqualTo(EXPECTED_SUM);
    Map<String, Long> plainWriteAndRead = NameNodeRpcs.delta(before, s3.requests());
    // a hit's fair baseline: the input read (the plan a stage is called with), then the stored result
    before = s3.requests();
    raw();
    assertThat(sumOf(spark.read().parquet(plainOut))).isEqualTo(EXPECTED_SUM);
    Map<String, Long> plainRead = NameNodeRpcs.delta(before, s3.requests());

    System.out.printf("S3 requests (all JVMs), 1,000 rows in 4 input files:%n"
        + "  stage miss + sum %s = %d; plain write + read + sum %s = %d%n"
        + "  stage hit + sum %s = %d; plain read of the input and of the result + sum %s = %d%n",
        miss, total(miss), plainWriteAndRead, total(plainWriteAndRead), hit, total(hit), plainRead, total(plainRead));
    assertThat(writes(hit)).as("a hit never writes: %s", hit).isZero();
    assertThat(hit.getOrDefault("LIST", 0L)).as("the listings of a hit: %s", hit).isPositive();
  }

  @Test
  void writeTasksThatFailHalfWrittenAndAreRetriedLeaveEachRowOnceOnS3() {
    String location = s3.newLocation("flaky").toString();
    Dataset<Row> out = StageCache.at(spark, location).cache(ChildStages::flaky).apply(raw());
    assertThat(out.count()).isEqualTo(500);
    assertThat(sumOf(out)).isEqualTo(EXPECTED_SUM);
    Dataset<Row> again = StageCache.at(spark, location).cache(ChildStages::flaky).apply(raw());
    assertThat(again.count()).isEqualTo(500);
    assertThat(sumOf(again)).isEqualTo(EXPECTED_SUM);
  }

  private static long total(Map<String, Long> d) {
    return d.values().stream().mapToLong(Long::longValue).sum();
  }

  private static long writes(Map<String, Long> d) {
    return d.getOrDefault("PUT", 0L) + d.getOrDefault("POST", 0L) + d.getOrDefault("DELETE", 0L);
  }
}
