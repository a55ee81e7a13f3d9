package io.joblib4j.spark.internal;

import io.joblib4j.spi.support.ClassLookup;
import java.util.Optional;

/**
 * Which Spark Connect client this JVM has, told apart by class names only (nothing of either client
 * is loaded), and the refusal of one this jar's line has no Connect path for. The Spark 4 client's
 * session is {@code org.apache.spark.sql.connect.SparkSession}; the 3.5 client's is the class
 * {@code org.apache.spark.sql.SparkSession} itself, beside the client's {@code SparkConnectClient}.
 * The Connect path is built for Spark 4 with Scala 2.13 and Spark 3.5 with Scala 2.12 only
 * ({@link LineJars#connectBuilt}); the refusal names the jar for the running client, or says why
 * there is none.
 */
final class ConnectClientLine {
  /** The Connect client's own class, in Spark 3.5 and 4 alike. */
  static final String CONNECT_CLIENT = "org.apache.spark.sql.connect.client.SparkConnectClient";
  static final String SPARK3_SESSION = "org.apache.spark.sql.SparkSession";

  private ConnectClientLine() {}

  /** The running client's line ("4", "3.5", "3.4", or "3" when its version cannot be read) and version. */
  record Client(String line, String version) {}

  /** The Connect client on this jar's class path; empty if there is none. */
  static Optional<Client> running() {
    ClassLoader loader = ConnectClientLine.class.getClassLoader();
    if (ClassLookup.isPresent(ConnectDispatch.CONNECT_SESSION, loader)) {
      return Optional.of(new Client("4",
          ClassLookup.implementationVersion(ConnectDispatch.CONNECT_SESSION, loader).orElse("4.x")));
    }
    if (ClassLookup.isPresent(CONNECT_CLIENT, loader)) {
      String v = ClassLookup.implementationVersion(CONNECT_CLIENT, loader).orElse("3.x");
      return Optional.of(new Client(LineJars.lineOf(v).orElse("3"), v));
    }
    return Optional.empty();
  }

  /**
   * Fails at once, saying what to use, when this JVM's Connect client is not the one this jar's line
   * serves, or this jar's line has no Connect path at all.
   *
   * @param what what chose Spark Connect (the session's class, {@code spark.remote=...}), for the message
   */
  static void refuseOtherClient(String what) {
    Optional<Client> client = running();
    Optional<String> problem = client.isPresent()
        ? problem(client.get(), scala.util.Properties.versionNumberString(), BuiltForSpark.LINE, BuiltForScala.BINARY)
        : noConnectPath(BuiltForSpark.LINE, BuiltForScala.BINARY);
    if (problem.isPresent()) {
      throw new UnsupportedOperationException("Spark Connect (" + what + "): " + problem.get());
    }
  }

  /** Why a jar of a line without a Connect path cannot serve Spark Connect at all, or empty. */
  static Optional<String> noConnectPath(String builtLine, String builtScala) {
    if (LineJars.connectBuilt(builtLine, builtScala)) {
      return Optional.empty(); // no client: the dispatch says the Connect module is missing
    }
    return Optional.of("this joblib4j spark backend (" + LineJars.backend(builtLine, builtScala) + ", also in "
        + LineJars.bundle(builtLine, builtScala) + ") has no Spark Connect path on " + LineJars.describe(builtLine)
        + " with Scala " + builtScala + ". " + instead(builtLine, builtScala));
  }

  /** Why this jar (built for {@code builtLine}, {@code builtScala}) cannot run on {@code client}, or empty. */
  static Optional<String> problem(Client client, String scala, String builtLine, String builtScala) {
    String runningScala = LineJars.binaryOf(scala).orElse(builtScala);
    if (client.line().equals(builtLine) && runningScala.equals(builtScala)
        && LineJars.connectBuilt(builtLine, builtScala)) {
      return Optional.empty();
    }
    String session = "4".equals(client.line()) ? ConnectDispatch.CONNECT_SESSION : SPARK3_SESSION;
    String builtFor = LineJars.connectBuilt(builtLine, builtScala)
        ? "runs on Spark Connect with " + LineJars.describe(builtLine) + " Connect clients on Scala " + builtScala
        : "has no Spark Connect path on " + LineJars.describe(builtLine) + " with Scala " + builtScala;
    return Optional.of("this joblib4j spark backend (" + LineJars.backend(builtLine, builtScala) + ", also in "
        + LineJars.bundle(builtLine, builtScala) + ") " + builtFor + " (Java 17 or newer); this JVM has a Spark "
        + client.version() + " Spark Connect client on Scala " + runningScala + " (its session is " + session
        + "), whose classes it was not built against. " + instead(client.line(), runningScala));
  }

  /** What to use with a Connect client of {@code line} on Scala {@code scala}. */
  static String instead(String line, String scala) {
    if ("4".equals(line)) {
      scala = "2.13"; // Spark 4 is built for Scala 2.13 only
    }
    String elsewhere = " Or use a classic session (a dedicated / single-user cluster, spark.api.mode=classic), or"
        + " backend(\"threads\") for local work.";
    if (LineJars.connectBuilt(line, scala)) {
      return "Use " + LineJars.bundle(line, scala) + " instead (the one jar for notebooks and Connect clients; as"
          + " separate modules, " + LineJars.connect(line, scala) + " beside " + LineJars.backend(line, scala) + ")."
          + elsewhere;
    }
    if ("3.5".equals(line) && "2.13".equals(scala)) {
      return "No joblib4j Connect path is built for Spark 3.5 with Scala 2.13: Maven Central (the registry"
          + " joblib4j is built and tested from) serves no spark-connect-client-jvm_2.13 for Spark 3.5, only"
          + " spark-connect-client-jvm_2.12 3.5.0. Use a Spark 3.5 Connect client on Scala 2.12 with "
          + LineJars.bundle("3.5", "2.12") + ", or a Spark 4 Connect client with " + LineJars.bundle("4", "2.13")
          + "." + elsewhere;
    }
    return "Spark 3.x Connect clients older than Spark 3.5 are not supported: use a Spark 3.5 client on Scala 2.12"
        + " with " + LineJars.bundle("3.5", "2.12") + ", or a Spark 4 client with " + LineJars.bundle("4", "2.13")
        + "." + elsewhere;
  }
}
