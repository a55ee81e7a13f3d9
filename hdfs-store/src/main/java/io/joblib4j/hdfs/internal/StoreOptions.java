package io.joblib4j.hdfs.internal;

import io.joblib4j.hdfs.HadoopStoreOptions;
import io.joblib4j.spi.support.ByteSizes;
import io.joblib4j.spi.support.OwnerOnlyFolders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store options, parsed and checked once when the store opens.
 *
 * @param commit how entries are published; null: by scheme
 * @param localCacheDir the node-local copy cache
 * @param localCacheBytes the size it is kept under
 * @param publishWait marker mode: how long to wait for another writer's entry
 * @param outageBackoff how long to fail fast after the file system was unreachable
 * @param leaseRecoveryTimeout how long sweep waits for a dead writer's lease
 * @param hadoop Hadoop configuration keys to set on the store's FileSystem instance
 */
record StoreOptions(CommitMode commit, Path localCacheDir, long localCacheBytes, Duration publishWait,
    Duration outageBackoff, Duration leaseRecoveryTimeout, Map<String, String> hadoop) {

  private static final List<String> KNOWN = List.of(HadoopStoreOptions.COMMIT, HadoopStoreOptions.LOCAL_CACHE_DIR,
      HadoopStoreOptions.LOCAL_CACHE_SIZE, HadoopStoreOptions.PUBLISH_WAIT, HadoopStoreOptions.OUTAGE_BACKOFF,
      HadoopStoreOptions.LEASE_RECOVERY_TIMEOUT, HadoopStoreOptions.HADOOP_PREFIX + "<any Hadoop key>");
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

  static StoreOptions parse(Map<String, ?> options) {
    CommitMode commit = null;
    Path dir = defaultLocalCacheDir();
    long bytes = 10L << 30;
    Duration wait = Duration.ofSeconds(30);
    Duration backoff = Duration.ofSeconds(15);
    Duration lease = Duration.ofSeconds(120);
    Map<String, String> hadoop = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : options.entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      if (value == null) {
        throw new IllegalArgumentException("store option \"" + key + "\" is null");
      }
      switch (key) {
        case HadoopStoreOptions.COMMIT -> commit = CommitMode.parse(value.toString());
        case HadoopStoreOptions.LOCAL_CACHE_DIR -> dir = Path.of(value.toString());
        case HadoopStoreOptions.LOCAL_CACHE_SIZE -> bytes = value instanceof Number n ? n.longValue() : ByteSizes.parse(value.toString());
        case HadoopStoreOptions.PUBLISH_WAIT -> wait = duration(key, value);
        case HadoopStoreOptions.OUTAGE_BACKOFF -> backoff = duration(key, value);
        case HadoopStoreOptions.LEASE_RECOVERY_TIMEOUT -> lease = duration(key, value);
        default -> {
          if (key.startsWith(HadoopStoreOptions.HADOOP_PREFIX) && key.length() > HadoopStoreOptions.HADOOP_PREFIX.length()) {
            hadoop.put(key.substring(HadoopStoreOptions.HADOOP_PREFIX.length()), value.toString());
          } else {
            throw new IllegalArgumentException("unknown option \"" + key + "\" for the Hadoop store; known: "
                + String.join(", ", KNOWN));
          }
        }
      }
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("store option " + HadoopStoreOptions.LOCAL_CACHE_SIZE + " must not be negative");
    }
    return new StoreOptions(commit, dir, bytes, wait, backoff, lease, Map.copyOf(hadoop));
  }

  private static Duration duration(String key, Object value) {
    if (value instanceof Duration d) {
      return d;
    }
    if (value instanceof Number n) {
      return Duration.ofMillis(n.longValue());
    }
    String s = value.toString().trim().toLowerCase(Locale.ROOT);
    Matcher m = SHORT_DURATION.matcher(s);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      };
    }
    try {
      return Duration.parse(value.toString().trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("store option \"" + key + "\" must be a duration like 500ms, 30s, 5m or"
          + " PT30S, got \"" + value + "\"");
    }
  }

  private static Path defaultLocalCacheDir() {
    String env = System.getenv("JOBLIB4J_LOCAL_CACHE");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return defaultInTemp();
  }

  /** {@code <java.io.tmpdir>/joblib4j-<user>/store-cache}: its parent must be this user's alone ({@link LocalCopies}). */
  static Path defaultInTemp() {
    return OwnerOnlyFolders.inTemp("joblib4j-").resolve("store-cache").toAbsolutePath().normalize();
  }
}
