package io.joblib4j.spark.internal;

/**
 * The Spark line this jar was compiled for (the spark-4 folder is compiled only for Spark 4 builds):
 * "4" stands for 4.0, 4.1 and 4.2, whose API the backend uses alike.
 */
final class BuiltForSpark {
  static final String LINE = "4";

  private BuiltForSpark() {}
}
