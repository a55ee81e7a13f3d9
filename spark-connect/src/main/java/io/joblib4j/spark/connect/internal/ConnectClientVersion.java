package io.joblib4j.spark.connect.internal;

import io.joblib4j.spi.support.ClassLookup;

/**
 * Refuses a Spark Connect client older than Spark 4 before any of its classes is touched: a 3.x
 * client has no {@code org.apache.spark.sql.connect.SparkSession} (its session is the class {@code
 * org.apache.spark.sql.SparkSession} itself), so the first sign would otherwise be a bare
 * NoClassDefFoundError. Names no Connect class itself.
 */
final class ConnectClientVersion {
  static final String CONNECT_SESSION = "org.apache.spark.sql.connect.SparkSession";
  static final String CONNECT_CLIENT = "org.apache.spark.sql.connect.client.SparkConnectClient";

  private ConnectClientVersion() {}

  /** Fails at once, saying what to do, unless a Spark 4 Connect client is on the class path. */
  static void requireSupported() {
    ClassLoader loader = ConnectClientVersion.class.getClassLoader();
    if (ClassLookup.isPresent(CONNECT_SESSION, loader)) {
      return;
    }
    String found = ClassLookup.isPresent(CONNECT_CLIENT, loader)
        ? "a Spark 3.x Spark Connect client (spark-connect-client-jvm "
            + ClassLookup.implementationVersion(CONNECT_CLIENT, loader).orElse("3.x")
            + ", whose session is org.apache.spark.sql.SparkSession)"
        : "no Spark Connect client (spark-connect-client-jvm)";
    throw new UnsupportedOperationException("joblib4j-spark-connect runs on Spark 4.0, 4.1 and 4.2 Connect clients"
        + " (spark-connect-client-jvm_2.13 4.x); this JVM has " + found + ", whose classes it was not built"
        + " against: Spark 3.x is not supported. Use a Spark 4 client (Databricks Connect for a Spark 4 runtime),"
        + " a classic session on a dedicated / single-user cluster (spark.api.mode=classic), or"
        + " backend(\"threads\") for local work.");
  }
}
