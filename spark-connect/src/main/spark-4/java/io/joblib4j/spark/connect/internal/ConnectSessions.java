package io.joblib4j.spark.connect.internal;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.client.ClassFinder;
import scala.Option;

/**
 * The Spark 4 Connect client's session (this folder is compiled only for Spark 4 builds; spark-3.5/
 * holds the same class for the 3.5 client): {@code org.apache.spark.sql.connect.SparkSession}, a
 * subclass of the API's {@code org.apache.spark.sql.SparkSession}, which the shared code holds.
 * What only the Connect class has (its id, the class finder) and a class file added as one of the
 * session's class files are reached here.
 */
final class ConnectSessions {
  /** The Spark line of the Connect client this jar is compiled against ("4": 4.0, 4.1 and 4.2). */
  static final String LINE = "4";
  /** Its Scala version: Spark 4 has 2.13 only. */
  static final String SCALA = "2.13";
  /** The class of a Connect session, by name. */
  static final String SESSION_CLASS = "org.apache.spark.sql.connect.SparkSession";

  private ConnectSessions() {}

  /** Whether {@code session} is a Connect session (not a classic one). */
  static boolean isConnect(SparkSession session) {
    return session instanceof org.apache.spark.sql.connect.SparkSession;
  }

  /** The client's session class, whose jar the server has anyway. */
  static Class<?> sessionClass() {
    return org.apache.spark.sql.connect.SparkSession.class;
  }

  /** This thread's active Connect session, if any. */
  static Option<? extends SparkSession> active() {
    return org.apache.spark.sql.connect.SparkSession.getActiveSession();
  }

  /** The JVM's default Connect session, if any. */
  static Option<? extends SparkSession> defaultSession() {
    return org.apache.spark.sql.connect.SparkSession.getDefaultSession();
  }

  /** The session's id, which artifacts are kept per. */
  static String id(SparkSession session) {
    return connect(session).sessionId();
  }

  /** Registers a class finder (a REPL's output folder) with the session's client. */
  static void registerClassFinder(SparkSession session, ClassFinder finder) {
    connect(session).registerClassFinder(finder);
  }

  /**
   * Gives the session class files kept in memory, each as one of the session's class files under
   * its path in a class folder ({@code pkg/Name.class}), which Spark 4's artifact manager keeps.
   */
  static void addClassFiles(SparkSession session, Map<String, byte[]> files) {
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      session.addArtifact(f.getValue(), f.getKey());
    }
  }

  private static org.apache.spark.sql.connect.SparkSession connect(SparkSession session) {
    return (org.apache.spark.sql.connect.SparkSession) session;
  }
}
