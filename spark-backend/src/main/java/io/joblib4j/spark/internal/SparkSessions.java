package io.joblib4j.spark.internal;

import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * Finds the SparkContext a {@code backend("spark")} call runs on — the active or default
 * SparkSession's, or the running SparkContext (spark-submit, spark-shell, a notebook). Spark
 * Connect, which offers no SparkContext and no RDDs, goes another way ({@link ConnectDispatch})
 * before anything here runs.
 */
public final class SparkSessions {
  static final String CONNECT_REFUSAL = "joblib4j's spark backend runs tasks as RDD partitions on"
      + " executors, so it needs a classic SparkSession with a SparkContext; %s is Spark Connect,"
      + " which has neither. Run the driver on the cluster instead (spark-submit, spark-shell, or a"
      + " notebook on a dedicated / single-user cluster), or use backend(\"threads\") for local work.";

  static final String NO_SESSION = "backend(\"spark\") runs tasks on the executors of a running Spark, and this"
      + " JVM has no active SparkSession or SparkContext; Spark could not start one either (%s). Do one of:"
      + " create a session before the call, e.g. SparkSession.builder().master(\"local[*]\").getOrCreate()"
      + " (or your cluster's master URL); run the program with spark-submit, or in spark-shell or a notebook,"
      + " which start one; pass a session explicitly with backend(new SparkBackend(spark)); or run on this"
      + " machine without Spark with backend(\"threads\") or backend(\"processes\").";

  private SparkSessions() {}

  /** The SparkContext of the session or context in use, creating one only if spark-submit configured it. */
  static SparkContext current() {
    SparkVersion.requireSupported();
    SparkContext sc = fromActiveSession();
    if (sc != null) {
      return sc;
    }
    try {
      // the running context, or one made from spark-submit's system properties (spark.master, ...)
      return SparkContext.getOrCreate();
    } catch (Exception e) { // Spark throws SparkException, a checked exception its Scala API does not declare
      throw new IllegalStateException(String.format(NO_SESSION, e.getMessage()), e);
    }
  }

  /** The SparkContext behind {@code session}; Spark Connect is refused with a clear message. */
  public static SparkContext contextOf(SparkSession session) {
    SparkVersion.requireSupported();
    SparkContext sc = ClassicSessions.contextOrNull(session);
    if (sc == null) {
      throw new UnsupportedOperationException(String.format(CONNECT_REFUSAL,
          "this session (" + session.getClass().getName() + ")"));
    }
    return sc;
  }

  private static SparkContext fromActiveSession() {
    try {
      Option<SparkSession> s = SparkSession.getActiveSession();
      if (s.isEmpty()) {
        s = SparkSession.getDefaultSession();
      }
      return s.isEmpty() ? null : contextOf(s.get());
    } catch (NoClassDefFoundError noSparkSql) {
      return null; // spark-core alone: there can be no session, only a context
    }
  }

  /**
   * What chose Spark Connect ({@code SPARK_REMOTE}, {@code spark.remote} or {@code
   * spark.api.mode=connect}), or null.
   */
  static String connectConfiguration() {
    String remote = System.getenv("SPARK_REMOTE");
    String where = remote != null && !remote.isBlank() ? "SPARK_REMOTE=" + remote : null;
    if (where == null && System.getProperty("spark.remote") != null) {
      where = "spark.remote=" + System.getProperty("spark.remote");
    }
    if (where == null && "connect".equalsIgnoreCase(System.getProperty("spark.api.mode", "").trim())) {
      where = "spark.api.mode=connect";
    }
    return where;
  }
}
