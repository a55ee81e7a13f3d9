package io.joblib4j.spark.internal;

import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkContext behind a session, on Spark 4 (this folder is compiled only for Spark 4 builds;
 * spark-3.5/ holds the same class for 3.5). Since 4.0 {@code sql.SparkSession} is an abstract
 * API that Spark Connect implements too; only {@code sql.classic.SparkSession} has a context.
 */
final class ClassicSessions {
  private ClassicSessions() {}

  /** The session's SparkContext, or null when the session is not a classic one (Spark Connect). */
  static SparkContext contextOrNull(SparkSession session) {
    return session instanceof org.apache.spark.sql.classic.SparkSession classic ? classic.sparkContext() : null;
  }
}
