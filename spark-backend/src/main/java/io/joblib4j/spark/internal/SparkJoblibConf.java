package io.joblib4j.spark.internal;

import io.joblib4j.spi.support.ByteSizes;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * The {@code spark.joblib.*} settings (spark-submit passes on only keys that start with {@code
 * spark.}), read from the SparkConf, each overridable per backend with {@code
 * ParallelConfig.backend("spark").option("driver.port", 40000)} (the key without the prefix).
 *
 * @param driverHost the address executors connect to for batches; Spark's own driver address
 *     ({@code spark.driver.host}) by default
 * @param bindAddress the local address the driver listens on; {@code spark.driver.bindAddress}
 *     (itself defaulting to the driver host) by default
 * @param driverPort the port the driver listens on; 0 (any free port) by default
 * @param maxResultBytes the most serialized result bytes one call may bring back to the driver,
 *     0 for no limit; {@code spark.driver.maxResultSize} (1g) by default
 */
record SparkJoblibConf(String driverHost, String bindAddress, int driverPort, long maxResultBytes) {
  static final String PREFIX = "spark.joblib.";
  static final String DRIVER_HOST = PREFIX + "driver.host";
  static final String BIND_ADDRESS = PREFIX + "driver.bindAddress";
  static final String DRIVER_PORT = PREFIX + "driver.port";
  static final String MAX_RESULT_SIZE = PREFIX + "maxResultSize";

  /** The keys a backend option may set, without the prefix. */
  static final java.util.List<String> OPTION_KEYS =
      java.util.List.of("driver.host", "driver.bindAddress", "driver.port", "maxResultSize");

  static SparkJoblibConf from(SparkConf conf, Map<String, Object> options) {
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : options.entrySet()) {
      String key = e.getKey().startsWith(PREFIX) ? e.getKey().substring(PREFIX.length()) : e.getKey();
      if (!OPTION_KEYS.contains(key)) {
        throw new IllegalArgumentException("unknown option \"" + e.getKey() + "\" for the spark backend;"
            + " it knows: " + String.join(", ", OPTION_KEYS) + " (or the same keys as " + PREFIX
            + "* in the Spark configuration)");
      }
      values.put(key, String.valueOf(e.getValue()));
    }
    String sparkHost = conf.get("spark.driver.host", "127.0.0.1");
    String host = values.getOrDefault("driver.host", conf.get(DRIVER_HOST, sparkHost));
    String bind = values.getOrDefault("driver.bindAddress",
        conf.get(BIND_ADDRESS, conf.get("spark.driver.bindAddress", host)));
    String portText = values.getOrDefault("driver.port", conf.get(DRIVER_PORT, "0"));
    int port;
    try {
      port = Integer.parseInt(portText.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(DRIVER_PORT + " must be a port number (0 for any free"
          + " port), not \"" + portText + "\"", e);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(DRIVER_PORT + " must be between 0 and 65535, not " + port);
    }
    String sizeText = values.getOrDefault("maxResultSize",
        conf.get(MAX_RESULT_SIZE, conf.get("spark.driver.maxResultSize", "1g")));
    return new SparkJoblibConf(host, bind, port, parseSize(sizeText));
  }

  /** Spark's size syntax ({@code 1g}, {@code 512m}, {@code 0} for unlimited). */
  static long parseSize(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("b") && !t.endsWith("ib")) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      return ByteSizes.parse(t.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(MAX_RESULT_SIZE + " / spark.driver.maxResultSize must be a size"
          + " such as 1g, 512m or 0 (no limit), not \"" + text + "\"", e);
    }
  }
}
