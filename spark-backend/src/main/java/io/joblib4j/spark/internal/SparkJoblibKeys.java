package io.joblib4j.spark.internal;

import io.joblib4j.spi.support.Warnings;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.spark.SparkConf;
import scala.Tuple2;

/**
 * The names of the spark backend's settings: {@code spark.joblib4j.*} in the Spark configuration
 * (spark-submit passes on only keys that start with {@code spark.}), the same names without the
 * prefix as backend options. The names of earlier releases, {@code spark.joblib.*}, still work,
 * with a deprecation warning; an unknown {@code spark.joblib4j.*} name — a typo that would
 * otherwise be silently ignored — is warned about with the closest known one. Each warning is
 * given once per JVM.
 */
final class SparkJoblibKeys {
  static final String PREFIX = "spark.joblib4j.";
  /** The prefix of earlier releases. */
  static final String OLD_PREFIX = "spark.joblib.";

  static final String CHANNEL = "channel";
  static final String DRIVER_HOST = "driver.host";
  static final String BIND_ADDRESS = "driver.bindAddress";
  static final String DRIVER_PORT = "driver.port";
  static final String CONNECT_TIMEOUT = "driver.connectTimeout";
  static final String ENCRYPTION = "driver.encryption";
  static final String MAX_RESULT_SIZE = "maxResultSize";

  /** Every name this backend reads, without the prefix. */
  static final List<String> NAMES =
      List.of(CHANNEL, DRIVER_HOST, BIND_ADDRESS, DRIVER_PORT, CONNECT_TIMEOUT, ENCRYPTION, MAX_RESULT_SIZE);

  private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

  private SparkJoblibKeys() {}

  /** The Spark configuration key of {@code name}, e.g. {@code spark.joblib4j.driver.port}. */
  static String key(String name) {
    return PREFIX + name;
  }

  /**
   * Warns, once per JVM and key, about each {@code spark.joblib.*} key of {@code conf} this backend
   * knows (deprecated) and each {@code spark.joblib4j.*} key it does not (with the closest name).
   */
  static void checkConf(SparkConf conf) {
    for (Tuple2<String, String> entry : conf.getAll()) {
      String key = entry._1();
      if (key.startsWith(PREFIX)) {
        String name = key.substring(PREFIX.length());
        if (!NAMES.contains(name) && WARNED.add(key)) {
          Warnings.warn(SparkJoblibKeys.class, "unknown Spark setting " + key + " is ignored; did you mean "
              + key(closest(name)) + "? The spark backend reads: " + String.join(", ", NAMES.stream()
                  .map(SparkJoblibKeys::key).toList()));
        }
      } else if (key.startsWith(OLD_PREFIX) && NAMES.contains(key.substring(OLD_PREFIX.length()))) {
        warnDeprecated(key);
      }
    }
  }

  /**
   * The name of a backend option ({@code driver.port}, or the same with either prefix).
   *
   * @throws IllegalArgumentException for an unknown option, naming the closest known one
   */
  static String optionName(String option) {
    String name = option;
    if (option.startsWith(PREFIX)) {
      name = option.substring(PREFIX.length());
    } else if (option.startsWith(OLD_PREFIX)) {
      name = option.substring(OLD_PREFIX.length());
      if (NAMES.contains(name)) {
        warnDeprecated(option);
      }
    }
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown option \"" + option + "\" for the spark backend; did you"
          + " mean \"" + closest(name) + "\"? It knows: " + String.join(", ", NAMES) + " (or the same names"
          + " as " + PREFIX + "* in the Spark configuration)");
    }
    return name;
  }

  /**
   * The value of {@code name} in {@code conf}: {@code spark.joblib4j.<name>}, else the deprecated
   * {@code spark.joblib.<name>}, else null.
   */
  static String get(SparkConf conf, String name) {
    if (conf.contains(key(name))) {
      return conf.get(key(name));
    }
    if (conf.contains(OLD_PREFIX + name)) {
      warnDeprecated(OLD_PREFIX + name);
      return conf.get(OLD_PREFIX + name);
    }
    return null;
  }

  private static void warnDeprecated(String oldKey) {
    if (WARNED.add(oldKey)) {
      String name = oldKey.substring(OLD_PREFIX.length());
      Warnings.warn(SparkJoblibKeys.class, oldKey + " is deprecated: name it " + key(name) + " (the old"
          + " name still works in this release, and " + key(name) + " wins when both are set)");
    }
  }

  /** The known name nearest to {@code name} in edit distance, ignoring case (commons-text ships with Spark). */
  static String closest(String name) {
    LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
    return NAMES.stream()
        .min(Comparator.comparingInt(n -> distance.apply(n.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT))))
        .orElseThrow();
  }
}
