package io.joblib4j.spark.connect;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark 3.5 Connect client's session for the tests (this folder is compiled only for Spark 3.5
 * builds; spark-4/ holds the same class for Spark 4): {@code org.apache.spark.sql.SparkSession}
 * itself, whose companion makes, sets and forks sessions.
 */
public final class ConnectLine {
  /** The class of a Connect session, by name: the same as classic Spark's session. */
  public static final String SESSION_CLASS = "org.apache.spark.sql.SparkSession";

  private ConnectLine() {}

  /** A session on the server at {@code url} ({@code sc://host:port}). */
  public static SparkSession remote(String url) {
    return SparkSession.builder().remote(url).getOrCreate();
  }

  /** Makes {@code session} the JVM's default session. */
  public static void setDefault(SparkSession session) {
    SparkSession.setDefaultSession(session);
  }

  /** Makes {@code session} this thread's active session. */
  public static void setActive(SparkSession session) {
    SparkSession.setActiveSession(session);
  }

  /** A new session of the same server, with no artifact of its own. */
  public static SparkSession newSession(SparkSession session) {
    return session.newSession();
  }
}
