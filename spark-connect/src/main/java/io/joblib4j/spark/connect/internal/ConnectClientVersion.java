package io.joblib4j.spark.connect.internal;

import io.joblib4j.spi.support.ClassLookup;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses a Spark Connect client this jar was not built for before any of its classes is touched:
 * the Spark 4 client's session is {@code org.apache.spark.sql.connect.SparkSession}, the 3.5
 * client's the class {@code org.apache.spark.sql.SparkSession} itself, so the first sign would
 * otherwise be a bare NoClassDefFoundError or NoSuchMethodError. Each client line has a jar of its
 * own (the line {@link ConnectSessions} was compiled for); the refusal names the one for the running
 * client, or says why there is none. Names no Connect class itself.
 */
final class ConnectClientVersion {
  /** Spark 4's Connect session; absent from a 3.x client. */
  static final String SPARK4_SESSION = "org.apache.spark.sql.connect.SparkSession";
  /** The Connect client's own class, in Spark 3.x and 4 alike. */
  static final String CONNECT_CLIENT = "org.apache.spark.sql.connect.client.SparkConnectClient";
  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

  /** A Connect client: its line ("4", "3.5", "3.4", or "3" when its version cannot be read) and version. */
  record Client(String line, String version) {}

  private ConnectClientVersion() {}

  /** Fails at once, saying what to do, unless the Connect client this jar was built for is on the class path. */
  static void requireSupported() {
    ClassLoader loader = ConnectClientVersion.class.getClassLoader();
    Optional<String> problem = problem(running(loader).orElse(null), scala.util.Properties.versionNumberString(),
        ConnectSessions.LINE, ConnectSessions.SCALA);
    if (problem.isPresent()) {
      throw new UnsupportedOperationException(problem.get());
    }
  }

  /** The Connect client on {@code loader}'s class path, told apart by class names only; empty if none. */
  static Optional<Client> running(ClassLoader loader) {
    if (ClassLookup.isPresent(SPARK4_SESSION, loader)) {
      String v = ClassLookup.implementationVersion(SPARK4_SESSION, loader).orElse("4.x");
      return Optional.of(new Client("4", v));
    }
    if (ClassLookup.isPresent(CONNECT_CLIENT, loader)) {
      String v = ClassLookup.implementationVersion(CONNECT_CLIENT, loader).orElse("3.x");
      Matcher m = MAJOR_MINOR.matcher(v);
      return Optional.of(new Client(m.find() ? m.group(1) + "." + m.group(2) : "3", v));
    }
    return Optional.empty();
  }

  /**
   * Why a jar built for Connect clients of {@code builtLine} and {@code builtScala} cannot run with
   * {@code client} (null: none) on Scala {@code scala}, or empty.
   */
  static Optional<String> problem(Client client, String scala, String builtLine, String builtScala) {
    String runningScala = binary(scala);
    String built = "This joblib4j Spark Connect path (" + artifact(builtLine, builtScala) + ", also in "
        + bundle(builtLine, builtScala) + ") was built for " + describe(builtLine) + " Connect clients with Scala "
        + builtScala + " (Java 17 or newer); ";
    if (client == null) {
      return Optional.of(built + "this JVM has no Spark Connect client (spark-connect-client-jvm). Add the client"
          + " your Spark Connect server's line needs, or use a classic session with backend(\"spark\"), or"
          + " backend(\"threads\") for local work.");
    }
    if (client.line().equals(builtLine) && runningScala.equals(builtScala)) {
      return Optional.empty();
    }
    String found = "this JVM has a Spark " + client.version() + " Spark Connect client (spark-connect-client-jvm_"
        + runningScala + ", whose session is " + ("4".equals(client.line()) ? SPARK4_SESSION
        : "org.apache.spark.sql.SparkSession") + "), whose classes it was not built against.";
    return Optional.of(built + found + " " + instead(client.line(), runningScala));
  }

  /** What to use for a client of {@code line} on Scala {@code scala}. */
  static String instead(String line, String scala) {
    if ("4".equals(line)) {
      scala = "2.13"; // Spark 4 is built for Scala 2.13 only
    }
    String elsewhere = " Or use a classic session (a dedicated / single-user cluster, spark.api.mode=classic), or"
        + " backend(\"threads\") for local work.";
    if (built(line, scala)) {
      return "Use " + bundle(line, scala) + " instead (the one jar for notebooks and Connect clients; as separate"
          + " modules, " + artifact(line, scala) + " beside " + backend(line, scala) + ")." + elsewhere;
    }
    if ("3.5".equals(line) && "2.13".equals(scala)) {
      return "No joblib4j Connect path is built for Spark 3.5 with Scala 2.13: Maven Central (the registry"
          + " joblib4j is built and tested from) serves no spark-connect-client-jvm_2.13 for Spark 3.5, only"
          + " spark-connect-client-jvm_2.12 3.5.0. Use a Spark 3.5 Connect client on Scala 2.12 with "
          + bundle("3.5", "2.12") + ", or a Spark 4 Connect client with " + bundle("4", "2.13") + "." + elsewhere;
    }
    return "Spark Connect clients older than Spark 3.5 are not supported: use a Spark 3.5 client on Scala 2.12"
        + " with " + bundle("3.5", "2.12") + ", or a Spark 4 client with " + bundle("4", "2.13") + "." + elsewhere;
  }

  /** The client lines and Scala versions a Connect path is built for. */
  static boolean built(String line, String scala) {
    return "4".equals(line) && "2.13".equals(scala) || "3.5".equals(line) && "2.12".equals(scala);
  }

  static String bundle(String line, String scala) {
    return "joblib4j-spark-" + line + "-bundle_" + scala;
  }

  static String artifact(String line, String scala) {
    return "4".equals(line) ? "joblib4j-spark-connect_" + scala : "joblib4j-spark-connect-" + line + "_" + scala;
  }

  static String backend(String line, String scala) {
    return "4".equals(line) ? "joblib4j-spark-backend_" + scala : "joblib4j-spark-backend-" + line + "_" + scala;
  }

  static String describe(String line) {
    return "4".equals(line) ? "Spark 4.0, 4.1 and 4.2" : "Spark " + line;
  }

  private static String binary(String scala) {
    Matcher m = MAJOR_MINOR.matcher(scala);
    return m.find() ? m.group(1) + "." + m.group(2) : scala;
  }
}
