package io.joblib4j.spark.internal;

import static io.joblib4j.spark.internal.SparkJoblibKeys.BIND_ADDRESS;
import static io.joblib4j.spark.internal.SparkJoblibKeys.CHANNEL;
import static io.joblib4j.spark.internal.SparkJoblibKeys.CONNECT_TIMEOUT;
import static io.joblib4j.spark.internal.SparkJoblibKeys.DRIVER_HOST;
import static io.joblib4j.spark.internal.SparkJoblibKeys.DRIVER_PORT;
import static io.joblib4j.spark.internal.SparkJoblibKeys.ENCRYPTION;
import static io.joblib4j.spark.internal.SparkJoblibKeys.MAX_RESULT_SIZE;
import static io.joblib4j.spark.internal.SparkJoblibKeys.key;

import io.joblib4j.spi.support.ByteSizes;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.network.util.JavaUtils;

/**
 * The {@code spark.joblib4j.*} settings ({@link SparkJoblibKeys}), read from the SparkConf, each
 * overridable per backend with {@code new SparkBackend(sc, Map.of("driver.port", "40000-40100"))}
 * or {@code ParallelConfig.backend("spark").option(...)} (the name without the prefix).
 *
 * @param channel how batches reach the executors ({@code channel}: auto, driver or job)
 * @param driverHost the address executors connect to for batches ({@code driver.host}); Spark's
 *     own driver address ({@code spark.driver.host}) by default
 * @param bindAddress the local address the driver listens on ({@code driver.bindAddress}); {@code
 *     spark.driver.bindAddress}, itself defaulting to the driver host, by default
 * @param ports the ports the driver may listen on ({@code driver.port}); any free port by default
 * @param connectTimeoutMillis how long an executor tries to reach the driver before the call falls
 *     back to Spark jobs, or fails ({@code driver.connectTimeout}, 10s)
 * @param encrypt whether the channel is encrypted ({@code driver.encryption}: {@code auto}, the
 *     default, when Spark encrypts its own RPC; {@code always})
 * @param maxResultBytes the most serialized result bytes of one batch, 0 for no limit ({@code
 *     maxResultSize}); {@code spark.driver.maxResultSize} (1g) by default
 */
record SparkJoblibConf(ChannelMode channel, String driverHost, String bindAddress, PortRange ports,
    long connectTimeoutMillis, boolean encrypt, long maxResultBytes) {

  static SparkJoblibConf from(SparkConf conf, Map<String, Object> options) {
    SparkJoblibKeys.checkConf(conf);
    Map<String, String> overrides = new HashMap<>();
    options.forEach((option, value) -> overrides.put(SparkJoblibKeys.optionName(option), String.valueOf(value)));
    Settings s = new Settings(conf, overrides);

    ChannelMode channel = ChannelMode.parse(key(CHANNEL), s.get(CHANNEL, "auto"));
    String host = s.get(DRIVER_HOST, conf.get("spark.driver.host", "127.0.0.1"));
    String bind = s.get(BIND_ADDRESS, conf.get("spark.driver.bindAddress", host));
    PortRange ports = PortRange.parse(key(DRIVER_PORT), s.get(DRIVER_PORT, "0"), conf.getInt("spark.port.maxRetries", 16));
    long connectTimeout = parseTime(key(CONNECT_TIMEOUT), s.get(CONNECT_TIMEOUT, "10s"));
    boolean encrypt = encryption(conf, s.get(ENCRYPTION, "auto"));
    long maxResult = parseSize(s.get(MAX_RESULT_SIZE, conf.get("spark.driver.maxResultSize", "1g")));
    return new SparkJoblibConf(channel, host, bind, ports, connectTimeout, encrypt, maxResult);
  }

  /** Whether Spark encrypts its own RPC, which carries the tasks and so the channel's keys. */
  static boolean sparkEncryptsRpc(SparkConf conf) {
    return conf.getBoolean("spark.network.crypto.enabled", false)
        || conf.getBoolean("spark.ssl.rpc.enabled", conf.getBoolean("spark.ssl.enabled", false))
        || conf.getBoolean("spark.ssl.enabled", false);
  }

  private static boolean encryption(SparkConf conf, String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> sparkEncryptsRpc(conf);
      case "always" -> true;
      default -> throw new IllegalArgumentException(key(ENCRYPTION) + " must be auto (encrypt when Spark"
          + " encrypts its own RPC: spark.network.crypto.enabled, spark.ssl.enabled or spark.ssl.rpc.enabled)"
          + " or always, not \"" + text + "\"");
    };
  }

  private static long parseTime(String key, String text) {
    long millis;
    try {
      millis = JavaUtils.timeStringAsMs(text.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(key + " must be a duration such as 10s, 2m or 500ms, not \"" + text
          + "\"", e);
    }
    if (millis <= 0 || millis > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " must be a positive duration such as 10s, not \"" + text + "\"");
    }
    return millis;
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
      throw new IllegalArgumentException(key(MAX_RESULT_SIZE) + " / spark.driver.maxResultSize must be a size"
          + " such as 1g, 512m or 0 (no limit), not \"" + text + "\"", e);
    }
  }

  /** A backend's options over the Spark configuration's settings. */
  private record Settings(SparkConf conf, Map<String, String> overrides) {
    String get(String name, String fallback) {
      String v = overrides.containsKey(name) ? overrides.get(name) : SparkJoblibKeys.get(conf, name);
      return v != null ? v : fallback;
    }
  }
}
