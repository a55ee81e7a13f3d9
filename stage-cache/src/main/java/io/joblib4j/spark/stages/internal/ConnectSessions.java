package io.joblib4j.spark.stages.internal;

/**
 * Spark Connect sessions, recognized by their class name so that nothing here links the Connect
 * client. A Connect client has no analyzed plan of its Datasets ({@code queryExecution}) and no
 * SparkContext (for the Hadoop configuration the cache's files are written with), which the stage
 * cache's key and writes need, so it refuses them at once instead of failing inside a call.
 */
public final class ConnectSessions {
  private ConnectSessions() {}

  public static boolean isConnect(Object session) {
    return session.getClass().getName().startsWith("org.apache.spark.sql.connect.");
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
