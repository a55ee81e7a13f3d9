package io.joblib4j.spark.internal;

import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The SparkContext behind a session, on Spark 3.5 (this folder is compiled only for 3.5 builds;
 * spark-4/ holds the same class for Spark 4). In 3.5 {@code sql.SparkSession} is the classic
 * session itself, always with a context: 3.5's Spark Connect client has a session class of the
 * same name in a jar of its own, which a classic driver's class path does not hold.
 */
final class ClassicSessions {
  private ClassicSessions() {}

  /** The session's SparkContext (never null on 3.5). */
  static SparkContext contextOrNull(SparkSession session) {
    return session.sparkContext();
  }
}
