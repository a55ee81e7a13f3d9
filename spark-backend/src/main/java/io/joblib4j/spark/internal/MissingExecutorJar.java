package io.joblib4j.spark.internal;

import java.net.URL;
import java.security.CodeSource;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkException;

/**
 * Recognizes a Spark job that failed because the executors cannot load joblib4j — the driver has
 * it (on its class path, through {@code --driver-class-path}, or through {@code --packages} in
 * standalone cluster mode, where Spark resolves packages for the driver only), the executors were
 * never given it — and says which jar to ship and how, instead of Spark's four task retries ending
 * in a ClassNotFoundException.
 */
final class MissingExecutorJar {
  /** The bundle of the line this jar is built for (on Spark 3.5 / Scala 2.13, joblib4j-spark-3.5-bundle_2.13.jar). */
  static final String BUNDLE = LineJars.bundle(BuiltForSpark.LINE, BuiltForScala.BINARY) + ".jar";

  /** joblib4j's classes, and those of the libraries the bundle relocates, under their own names when shipped as separate jars. */
  private static final Pattern MISSING = Pattern.compile(
      "(?:ClassNotFoundException|NoClassDefFoundError)(?::\\s*| \\()"
          + "((?:io[./]joblib4j|org[./]objectweb[./]asm|com[./]esotericsoftware[./]kryo[./]kryo5|com[./]dynatrace[./]hash4j)[./][\\w$./]+)");

  private MissingExecutorJar() {}

  /**
   * A failure naming the missing jar, with {@code jobFailure} (the Spark job's own failure) as its
   * cause, when that is what {@code jobFailure} shows; otherwise {@code otherwise}.
   */
  static SparkException explain(Throwable jobFailure, SparkException otherwise) {
    String missing = missingClass(jobFailure);
    if (missing == null) {
      return otherwise;
    }
    return new SparkException("joblib4j: the Spark executors cannot load joblib4j (" + missing + " is"
        + " missing there): the driver has joblib4j, the executors were not given it. Ship it with the"
        + " application: spark-submit --jars " + BUNDLE + " (or spark.jars=<path or URL of " + BUNDLE
        + ">; on a notebook cluster, install it as a cluster library)" + driverCopy() + ". In standalone"
        + " cluster mode the jar's path must exist on the worker that runs the driver (or be an hdfs:,"
        + " http: or https: URL). --driver-class-path and spark.driver.extraClassPath reach the driver"
        + " only, and --packages does not reach the executors in standalone cluster mode.", jobFailure);
  }

  /** The joblib4j class an executor could not load, from the causes or from Spark's failure text. */
  static String missingClass(Throwable failure) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
      String text = t.getClass().getSimpleName() + ": " + t.getMessage();
      Matcher m = MISSING.matcher(text);
      if (m.find()) {
        return m.group(1).replace('/', '.');
      }
    }
    return null;
  }

  /** Where the driver loaded joblib4j from, when that is a jar: the one to ship. */
  private static String driverCopy() {
    CodeSource source = MissingExecutorJar.class.getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    return location != null && location.getPath().endsWith(".jar")
        ? "; the driver loaded joblib4j from " + location
        : "";
  }
}
