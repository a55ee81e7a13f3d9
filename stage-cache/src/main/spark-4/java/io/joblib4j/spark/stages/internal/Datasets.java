package io.joblib4j.spark.stages.internal;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A Dataset of a plan the stage cache rewrote, on Spark 4 (spark-3.5/ holds the same class for 3.5):
 * since 4.0 {@code ofRows} belongs to the classic implementation, {@code sql.classic.Dataset}.
 */
final class Datasets {
  private Datasets() {}

  static Dataset<Row> ofRows(SparkSession spark, LogicalPlan plan) {
    return org.apache.spark.sql.classic.Dataset.ofRows((org.apache.spark.sql.classic.SparkSession) spark, plan);
  }
}
