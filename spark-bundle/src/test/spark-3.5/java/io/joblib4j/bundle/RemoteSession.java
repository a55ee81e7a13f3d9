package io.joblib4j.bundle;

import org.apache.spark.sql.SparkSession;

/**
 * A Spark 3.5 Connect client's session, for the client program of {@link
 * ConnectClientWithOnlyTheBundleIT} (this folder is compiled only for Spark 3.5 builds; spark-4/
 * holds the same class for Spark 4). Compiled against the 3.5 Connect client, whose session is
 * {@code org.apache.spark.sql.SparkSession} itself; the 3.5 / Scala 2.13 bundle, which has no
 * Connect path, leaves this class and the IT out.
 */
final class RemoteSession {
  private RemoteSession() {}

  /** A session on the server at {@code url}, made this thread's active session. */
  static SparkSession open(String url) {
    SparkSession session = SparkSession.builder().remote(url).getOrCreate();
    SparkSession.setActiveSession(session);
    return session;
  }
}
