package io.joblib4j.spark.connect.internal;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.client.ClassFinder;
import scala.Option;

/**
 * The Spark 3.5 Connect client's session (this folder is compiled only for Spark 3.5 builds;
 * spark-4/ holds the same class for Spark 4): there, {@code org.apache.spark.sql.SparkSession} is
 * the Connect session itself, in the client's jar (a client JVM has no spark-core and no classic
 * spark-sql, so no other class of that name). Its artifact manager files a single {@code .class}
 * artifact under its bare file name, losing the package folders, and it has no {@code
 * addArtifact(bytes, target)}: class files kept in memory go to the server packed in a jar.
 */
final class ConnectSessions {
  /** The Spark line of the Connect client this jar is compiled against. */
  static final String LINE = "3.5";
  /**
   * Its Scala version: the only 3.5 Connect client the registry serves is
   * spark-connect-client-jvm_2.12 (3.5.0), so this line is built for 2.12 only.
   */
  static final String SCALA = "2.12";
  /** The class of a Connect session, by name: the same as classic Spark's session. */
  static final String SESSION_CLASS = "org.apache.spark.sql.SparkSession";

  private ConnectSessions() {}

  /**
   * Whether {@code session} is a Connect session. Compiled against the 3.5 client, this class can
   * only meet the client's session: a JVM with classic Spark 3.5 has another class of the same name,
   * told apart by spark-core, which a Connect client lacks.
   */
  static boolean isConnect(SparkSession session) {
    try {
      Class.forName("org.apache.spark.SparkEnv", false, session.getClass().getClassLoader());
      return false;
    } catch (ClassNotFoundException | LinkageError noSparkCore) {
      return true;
    }
  }

  /** The client's session class, whose jar the server has anyway. */
  static Class<?> sessionClass() {
    return SparkSession.class;
  }

  /** This thread's active Connect session, if any. */
  static Option<? extends SparkSession> active() {
    return SparkSession.getActiveSession();
  }

  /** The JVM's default Connect session, if any. */
  static Option<? extends SparkSession> defaultSession() {
    return SparkSession.getDefaultSession();
  }

  /** The session's id, which artifacts are kept per. */
  static String id(SparkSession session) {
    return session.sessionId();
  }

  /** Registers a class finder (a REPL's output folder) with the session's client. */
  static void registerClassFinder(SparkSession session, ClassFinder finder) {
    session.registerClassFinder(finder);
  }

  /**
   * Gives the session class files kept in memory, packed in one jar named by its content (3.5 would
   * file a single class file under its bare name, out of its package); a jar of the same classes is
   * given once per session.
   */
  static void addClassFiles(SparkSession session, Map<String, byte[]> files) {
    if (!files.isEmpty()) {
      ConnectArtifacts.addOnce(session, ClassFolderJars.jarOfFiles("classes", files));
    }
  }
}
