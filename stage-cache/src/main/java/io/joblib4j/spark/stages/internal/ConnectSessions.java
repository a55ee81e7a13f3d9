package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.support.ClassLookup;

/**
 * Spark Connect sessions, recognized by their class name so that nothing here links the Connect
 * client. A Connect client has no analyzed plan of its Datasets ({@code queryExecution}) and no
 * SparkContext (for the Hadoop configuration the cache's files are written with), which the stage
 * cache's key and writes need, so it refuses them at once instead of failing inside a call.
 */
public final class ConnectSessions {
  private ConnectSessions() {}

  /**
   * Whether {@code session} is a Spark Connect session: Spark 4's ({@code org.apache.spark.sql.connect.*}),
   * or Spark 3.5's client session, which has classic Spark's name ({@code org.apache.spark.sql.SparkSession})
   * but comes from a class loader without spark-core.
   */
  public static boolean isConnect(Object session) {
    Class<?> c = session.getClass();
    if (c.getName().startsWith("org.apache.spark.sql.connect.")) {
      return true;
    }
    // spark-core's SparkEnv, not SparkContext: the 3.5 Connect client carries an empty class of that name
    return c.getName().equals("org.apache.spark.sql.SparkSession")
        && !ClassLookup.isPresent("org.apache.spark.SparkEnv", c.getClassLoader());
  }

  public static void refuse(Object session) {
    if (isConnect(session)) {
      throw new UnsupportedOperationException("StageCache needs a classic SparkSession, and this is a Spark Connect"
          + " session (" + session.getClass().getName() + "): through Connect the client has neither the analyzed"
          + " logical plan of a Dataset (Dataset.queryExecution, from which a stage's key is made: its inputs' files,"
          + " its UDFs' code) nor a SparkContext. Run the pipeline where the driver runs (spark-submit, a notebook on"
          + " a dedicated cluster), or use Memory for values computed on the client.");
    }
  }
}
