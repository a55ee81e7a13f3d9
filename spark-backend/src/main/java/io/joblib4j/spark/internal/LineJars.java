package io.joblib4j.spark.internal;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark lines joblib4j is built for and the names of their jars, so that a refusal can name the
 * jar to use instead. A line is "3.5" (Scala 2.12 or 2.13) or "4" (4.0 to 4.2, and newer 4.x,
 * Scala 2.13); the artifacts are named as Delta's and Iceberg's are: the line before the Scala suffix.
 */
final class LineJars {
  static final String SUPPORTED = "Spark 3.5 (Scala 2.12 or 2.13) and Spark 4.0, 4.1 and 4.2 (Scala 2.13)";
  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");
  private static final Pattern SCALA_BINARY = Pattern.compile("^(\\d+\\.\\d+)");

  private LineJars() {}

  /** The line of a Spark version ("3.5", "4", or major.minor of a line joblib4j has no jar for), or empty. */
  static Optional<String> lineOf(String spark) {
    Matcher m = MAJOR_MINOR.matcher(spark);
    if (!m.find()) {
      return Optional.empty();
    }
    int major = Integer.parseInt(m.group(1));
    return Optional.of(major >= 4 ? "4" : major + "." + m.group(2));
  }

  /** The binary version of a Scala version ("2.12" of "2.12.18"), or empty. */
  static Optional<String> binaryOf(String scala) {
    Matcher m = SCALA_BINARY.matcher(scala);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** Whether a jar is built for this line and Scala version. */
  static boolean built(String line, String scalaBinary) {
    return "4".equals(line) ? "2.13".equals(scalaBinary)
        : "3.5".equals(line) && ("2.12".equals(scalaBinary) || "2.13".equals(scalaBinary));
  }

  /**
   * The bundle of a line joblib4j is built for: the one jar for --jars and notebooks, named for its
   * Spark line and Scala version ({@code joblib4j-spark-4-bundle_2.13}, {@code joblib4j-spark-3.5-bundle_2.12}).
   */
  static String bundle(String line, String scalaBinary) {
    return "joblib4j-spark-" + line + "-bundle_" + scalaBinary;
  }

  /** The spark backend's own artifact of a line joblib4j is built for. */
  static String backend(String line, String scalaBinary) {
    return "4".equals(line) ? "joblib4j-spark-backend_" + scalaBinary
        : "joblib4j-spark-backend-" + line + "_" + scalaBinary;
  }

  /**
   * Whether the Spark Connect path is built for this line and Scala version: Spark 4 on 2.13, and
   * Spark 3.5 on 2.12 only (the registry serves no spark-connect-client-jvm_2.13 for Spark 3.5).
   */
  static boolean connectBuilt(String line, String scalaBinary) {
    return "4".equals(line) ? "2.13".equals(scalaBinary) : "3.5".equals(line) && "2.12".equals(scalaBinary);
  }

  /** The Spark Connect path's own artifact of a line it is built for. */
  static String connect(String line, String scalaBinary) {
    return "4".equals(line) ? "joblib4j-spark-connect_" + scalaBinary
        : "joblib4j-spark-connect-" + line + "_" + scalaBinary;
  }

  /** A line in words: "Spark 4.0, 4.1 and 4.2", "Spark 3.5". */
  static String describe(String line) {
    return "4".equals(line) ? "Spark 4.0, 4.1 and 4.2" : "Spark " + line;
  }
}
