package io.joblib4j.spark.internal;

/** The Scala version this jar was compiled for (the scala-2.13 folder is compiled only for Scala 2.13 builds). */
final class BuiltForScala {
  static final String BINARY = "2.13";

  private BuiltForScala() {}
}
