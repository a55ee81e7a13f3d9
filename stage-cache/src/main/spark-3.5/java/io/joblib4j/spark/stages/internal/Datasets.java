package io.joblib4j.spark.stages.internal;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A Dataset of a plan the stage cache rewrote, on Spark 3.5 (spark-4/ holds the same class for
 * Spark 4): here {@code sql.Dataset} is the classic one, and its {@code ofRows} is package-private
 * in Scala only (public to Java).
 */
final class Datasets {
  private Datasets() {}

  static Dataset<Row> ofRows(SparkSession spark, LogicalPlan plan) {
    return Dataset.ofRows(spark, plan);
  }
}
