package io.joblib4j.spark.stages;

import org.apache.spark.sql.SparkSession;

/** The one local[2] SparkSession of a test JVM: starting Spark costs seconds, so test classes share it. */
public final class TestSpark {
  private static SparkSession session;

  private TestSpark() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("joblib4j-stage-cache-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          // Delta tables as inputs (DeltaInputTest); the stage cache itself never links Delta
          .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
          .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
          // a table's snapshot in 2 partitions, not Delta's 50: these tables have a few small commits
          .config("spark.databricks.delta.snapshotPartitions", "2")
          .getOrCreate();
    }
    return session;
  }
}
