package io.joblib4j.spark.connect;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark 4 Connect client's session for the tests (this folder is compiled only for Spark 4
 * builds; spark-3.5/ holds the same class for the 3.5 client): {@code
 * org.apache.spark.sql.connect.SparkSession}, whose companion makes, sets and forks sessions.
 */
public final class ConnectLine {
  /** The class of a Connect session, by name. */
  public static final String SESSION_CLASS = "org.apache.spark.sql.connect.SparkSession";

  private ConnectLine() {}

  /** A session on the server at {@code url} ({@code sc://host:port}). */
  public static SparkSession remote(String url) {
    return org.apache.spark.sql.connect.SparkSession.builder().remote(url).getOrCreate();
  }

  /** Makes {@code session} the JVM's default session. */
  public static void setDefault(SparkSession session) {
    org.apache.spark.sql.connect.SparkSession.setDefaultSession(session);
  }

  /** Makes {@code session} this thread's active session. */
  public static void setActive(SparkSession session) {
    org.apache.spark.sql.connect.SparkSession.setActiveSession(session);
  }

  /** A new session of the same server, with no artifact of its own. */
  public static SparkSession newSession(SparkSession session) {
    return ((org.apache.spark.sql.connect.SparkSession) session).newSession();
  }
}
