package io.joblib4j.spark.internal;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Backends;
import io.joblib4j.spi.support.ClassLookup;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the spark backend hands over to Spark Connect: sessions are told apart by their class name
 * and the Connect path is reached as the backend {@code "spark-connect"} of joblib4j-spark-connect
 * (a provider found through {@code META-INF/services}), so the classic path never loads a Connect
 * class and the Connect path never loads a classic one (a Connect client has no spark-core).
 */
public final class ConnectDispatch {
  /** The Connect client's session class (Spark 4). */
  static final String CONNECT_SESSION = "org.apache.spark.sql.connect.SparkSession";
  /** The Connect path's provider name, and the option that carries the session to it. */
  static final String CONNECT_BACKEND = "spark-connect";
  static final String SESSION_OPTION = "session";

  /** The Connect module of this jar's line, and its bundle. */
  static final String MODULE_MISSING = "this session (%s) is a Spark Connect session, which has no SparkContext"
      + " and no RDDs; joblib4j runs on Spark Connect through io.joblib4j:"
      + LineJars.connect(BuiltForSpark.LINE, BuiltForScala.BINARY) + ", which is not on the class path. Attach the"
      + " bundle " + LineJars.bundle(BuiltForSpark.LINE, BuiltForScala.BINARY) + " (it carries the Connect path)"
      + " or add that artifact, or use a classic session (a dedicated / single-user cluster, or"
      + " spark.api.mode=classic), or backend(\"threads\") for local work.";

  private ConnectDispatch() {}

  /**
   * Whether {@code session} is a Spark Connect session, by its class's name (and its superclasses'):
   * Spark 4's {@code org.apache.spark.sql.connect.SparkSession}, or Spark 3.5's client session, whose
   * name is classic Spark's ({@code org.apache.spark.sql.SparkSession}) but whose JVM has no
   * spark-core (a Connect client's).
   *
   * @param session a session
   * @return whether it is a Connect session
   */
  public static boolean isConnect(Object session) {
    for (Class<?> c = session.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().equals(CONNECT_SESSION)) {
        return true;
      }
    }
    return session.getClass().getName().equals(ConnectClientLine.SPARK3_SESSION)
        && !classicSparkPresent(session.getClass().getClassLoader());
  }

  /**
   * Whether {@code backend("spark")} runs on Spark Connect: configured so ({@code SPARK_REMOTE},
   * {@code spark.remote}, {@code spark.api.mode=connect}), or this JVM has no spark-core (a Connect
   * client), or the active session is a Connect session.
   *
   * @return whether the Connect path applies
   */
  public static boolean connectInUse() {
    if (SparkSessions.connectConfiguration() != null || !classicSparkPresent()) {
      return true;
    }
    try {
      scala.Option<org.apache.spark.sql.SparkSession> s = org.apache.spark.sql.SparkSession.getActiveSession();
      return s.isDefined() && isConnect(s.get());
    } catch (LinkageError noSparkSql) {
      return false; // spark-core alone: only classic contexts
    }
  }

  private static boolean classicSparkPresent() {
    return classicSparkPresent(ConnectDispatch.class.getClassLoader());
  }

  private static boolean classicSparkPresent(ClassLoader loader) {
    // not SparkContext: the Connect client's shims carry an empty class of that name
    return ClassLookup.isPresent("org.apache.spark.SparkEnv", loader);
  }

  /**
   * The active Connect session, or null to let the Connect path find it (classic API absent).
   *
   * @return the session, or null
   */
  public static Object activeSession() {
    try {
      scala.Option<org.apache.spark.sql.SparkSession> s = org.apache.spark.sql.SparkSession.getActiveSession();
      if (s.isDefined() && isConnect(s.get())) {
        return s.get();
      }
    } catch (LinkageError noSqlApi) {
      // the Connect path finds it through the Connect client itself
    }
    return null;
  }

  /**
   * The Connect path's backend on {@code session} (null: the active Connect session).
   *
   * @param session a Connect session, or null
   * @param options the backend options
   * @return joblib4j-spark-connect's backend
   * @throws UnsupportedOperationException if joblib4j-spark-connect is not on the class path, or the
   *     Connect client is not the one this jar's line has a Connect path for
   */
  public static Backend backendOn(Object session, Map<String, Object> options) {
    String what = session != null ? session.getClass().getName()
        : String.valueOf(SparkSessions.connectConfiguration() != null ? SparkSessions.connectConfiguration()
            : "a Spark Connect client without Spark");
    ConnectClientLine.refuseOtherClient(what);
    if (!Backends.available().contains(CONNECT_BACKEND)) {
      throw new UnsupportedOperationException(String.format(MODULE_MISSING, what));
    }
    Map<String, Object> o = new HashMap<>(options);
    if (session != null) {
      o.put(SESSION_OPTION, session);
    }
    return Backends.create(CONNECT_BACKEND, o);
  }

  /**
   * What a feature that needs a SparkContext says on Spark Connect.
   *
   * @param feature the feature, e.g. {@code "ChunkedArray on executors"}
   * @return the exception to throw
   */
  public static UnsupportedOperationException needsSparkContext(String feature) {
    return new UnsupportedOperationException(feature + " needs a SparkContext, and this is a Spark Connect"
        + " session, which has none. Use a classic session: a dedicated / single-user cluster, or"
        + " spark.api.mode=classic (spark-submit, spark-shell, a notebook on such a cluster); or run locally"
        + " with backend(\"threads\").");
  }
}
