package io.joblib4j.spark.internal;

/** The Spark line this jar was compiled for (the spark-3.5 folder is compiled only for Spark 3.5 builds). */
final class BuiltForSpark {
  static final String LINE = "3.5";

  private BuiltForSpark() {}
}
