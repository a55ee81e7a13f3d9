package io.joblib4j.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one SparkSession the local[2] tests of this JVM share: starting Spark costs seconds, so
 * every test class reuses it, and Spark's shutdown hook stops it when the fork exits.
 */
public final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  public static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("joblib4j-spark-backend-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          .getOrCreate();
    }
    return session;
  }

  /** A backend on the shared session; close it, Spark keeps running. */
  public static SparkBackend backend() {
    return new SparkBackend(session());
  }
}
