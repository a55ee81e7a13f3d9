package io.joblib4j.bundle;

import org.apache.spark.sql.SparkSession;

/**
 * A Spark 4 Connect client's session, for the client program of {@link
 * ConnectClientWithOnlyTheBundleIT} (this folder is compiled only for Spark 4 builds; spark-3.5/
 * holds the same class for the 3.5 client).
 */
final class RemoteSession {
  private RemoteSession() {}

  /** A session on the server at {@code url}, made this thread's active session. */
  static SparkSession open(String url) {
    SparkSession session = org.apache.spark.sql.connect.SparkSession.builder().remote(url).getOrCreate();
    org.apache.spark.sql.connect.SparkSession.setActiveSession(session);
    return session;
  }
}
