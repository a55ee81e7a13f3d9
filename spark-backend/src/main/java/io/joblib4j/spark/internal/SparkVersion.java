package io.joblib4j.spark.internal;

import io.joblib4j.spi.support.Warnings;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses a Spark the backend was not built for before anything of Spark's API is touched: on
 * another Spark line or Scala version the first sign would otherwise be a NoSuchMethodError or
 * NoClassDefFoundError deep in a call. Each line has a jar of its own ({@link LineJars}); the
 * refusal names the one for the running Spark and Scala. Uses only what Spark 3 and 4 both have.
 */
final class SparkVersion {
  static final String SUPPORTED = LineJars.SUPPORTED;
  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");
  private static final int NEWEST_TESTED_MINOR = 2;
  private static volatile boolean checked;

  private SparkVersion() {}

  /** Checks the running Spark and Scala once per JVM; warns once when the Spark line is newer than tested. */
  static void requireSupported() {
    if (checked) {
      return;
    }
    String spark;
    try {
      spark = running();
    } catch (LinkageError noSparkCore) {
      if (ConnectClientLine.running().isPresent()) { // a Connect client has none of spark-core
        ConnectClientLine.refuseOtherClient("a Spark Connect client without Spark");
      }
      throw noSparkCore;
    }
    requireSupported(spark, scala.util.Properties.versionNumberString());
    if (untested(running())) {
      Warnings.warn(SparkVersion.class, "joblib4j's spark backend is tested on " + SUPPORTED + "; this is"
          + " Spark " + running() + ". It should work; report what does not.");
    }
    checked = true;
  }

  static void requireSupported(String spark, String scala) {
    Optional<String> problem = problem(spark, scala);
    if (problem.isPresent()) {
      throw new UnsupportedOperationException(problem.get());
    }
  }

  static String running() {
    return org.apache.spark.package$.MODULE$.SPARK_VERSION();
  }

  /** Why this jar cannot run on this Spark and Scala, or empty (also when a version cannot be read). */
  static Optional<String> problem(String spark, String scala) {
    return problem(spark, scala, BuiltForSpark.LINE, BuiltForScala.BINARY);
  }

  /** Why a jar built for {@code builtLine} and {@code builtScala} cannot run on this Spark and Scala, or empty. */
  static Optional<String> problem(String spark, String scala, String builtLine, String builtScala) {
    Optional<String> line = LineJars.lineOf(spark);
    Optional<String> binary = LineJars.binaryOf(scala);
    if (line.map(builtLine::equals).orElse(true) && binary.map(builtScala::equals).orElse(true)) {
      return Optional.empty();
    }
    String runningLine = line.orElse(builtLine);
    String runningScala = binary.orElse(builtScala);
    String instead = LineJars.built(runningLine, runningScala)
        ? " Use " + LineJars.bundle(runningLine, runningScala) + " instead (the one jar for --jars and notebooks;"
            + " as separate modules, " + LineJars.backend(runningLine, runningScala) + " and its companions)."
        : " No joblib4j jar is built for Spark " + spark + " with Scala " + scala + ": joblib4j runs on " + SUPPORTED
            + ". Run the job on one of those, or use backend(\"threads\") or backend(\"processes\") on the driver.";
    return Optional.of("This joblib4j spark backend (" + LineJars.backend(builtLine, builtScala) + ", also in "
        + LineJars.bundle(builtLine, builtScala) + ") was built for " + LineJars.describe(builtLine)
        + " with Scala " + builtScala + " (Java 17 or newer); this is Spark " + spark + " with Scala " + scala
        + ", whose classes it was not built against." + instead);
  }

  /** A Spark line newer than the newest one tested (4.3 and up, 5.x). */
  static boolean untested(String spark) {
    Matcher m = MAJOR_MINOR.matcher(spark);
    if (!m.find()) {
      return false;
    }
    int major = Integer.parseInt(m.group(1));
    return major > 4 || major == 4 && Integer.parseInt(m.group(2)) > NEWEST_TESTED_MINOR;
  }
}
