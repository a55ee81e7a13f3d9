package io.joblib4j.hdfs.internal;

import java.lang.reflect.Method;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration a store starts from, and the settings that keep its calls bounded.
 *
 * <p>The configuration in scope is the active SparkContext's {@code hadoopConfiguration()} on a
 * Spark driver, the executor's (built from {@code spark.hadoop.*} by Spark's {@code
 * SparkHadoopUtil}) in an executor, and {@code new Configuration()} (the {@code *-site.xml} files on
 * the class path) elsewhere. Spark is looked up reflectively, so this module does not need it.
 */
public final class Configurations {
  /**
   * Client settings that make a store call fail within seconds when the NameNode is down, instead
   * of Hadoop's defaults (10 connection retries, 45 on timeouts, 20 s connect timeout): Memory then
   * computes without the cache. Applied only where the user's configuration does not set the key.
   */
  static final Map<String, String> FAIL_FAST = Map.of(
      "ipc.client.connect.max.retries", "1",
      "ipc.client.connect.retry.interval", "300",
      "ipc.client.connect.max.retries.on.timeouts", "1",
      "ipc.client.connect.timeout", "5000",
      "ipc.client.rpc-timeout.ms", "30000",
      "dfs.client.retry.policy.enabled", "false",
      "dfs.client.failover.max.attempts", "3",
      "dfs.client.socket-timeout", "30000");

  /**
   * How long closing a file waits before it asks the NameNode again whether the file's last block is
   * complete. Hadoop waits 400 ms first, then doubles, 5 times; the DataNode's report of the block
   * races the close, so about half the store's closes (mostly tiny records and manifests) lost those
   * 400 ms, which made a publish on HDFS take 0.5 s at the median instead of 0.1 s (BENCHMARKS.md,
   * "Pipeline stages"). 20 ms first and 9 tries keep Hadoop's patience (about 10 s) before a close
   * fails. Applied only where the user's configuration does not set the key.
   */
  static final Map<String, String> QUICK_CLOSE = Map.of(
      "dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20",
      "dfs.client.block.write.locateFollowingBlock.retries", "9");

  /**
   * S3A settings for the store's own instance. The classic input stream: hadoop-aws 3.5.0's default
   * (the analytics stream) keeps each object's ETag and data in the client, so a file replaced since
   * (function.json, a republished entry's manifest) is read with its old ETag and fails with 412 on
   * every attempt, and a read can be served without a request at all. Directory markers kept: the
   * hadoop-aws 3.3 of Spark 3.5 deletes the parent folders' markers after every PUT (a LIST and a bulk
   * DELETE per object the store writes, 4 requests more per miss and its store); 3.4 and later keep
   * them by default, and every client since 3.3.1 reads kept markers right. Applied only where the
   * user's configuration does not set the key.
   */
  static final Map<String, String> S3A = Map.of("fs.s3a.input.stream.type", "classic",
      "fs.s3a.directory.marker.retention", "keep");

  /** The client setting that makes every path through a symbolic link fail instead of being followed. */
  static final String NO_LINKS = "fs.client.resolve.remote.symlinks";

  private Configurations() {}

  /** The Hadoop configuration in scope (a copy: the store never changes the caller's). */
  public static Configuration inScope() {
    Configuration fromSpark = fromSpark();
    return fromSpark != null ? new Configuration(fromSpark) : new Configuration();
  }

  /**
   * {@code base} with the fail-fast and quick-close settings where {@code base} has none of its own,
   * then {@code overrides}.
   */
  static Configuration forStore(Configuration base, Map<String, String> overrides) {
    Configuration conf = new Configuration(base);
    FAIL_FAST.forEach((key, value) -> {
      if (!setByUser(base, key)) {
        conf.set(key, value, "joblib4j hdfs-store (fail fast when the file system is down)");
      }
    });
    applyQuickClose(base, conf);
    S3A.forEach((key, value) -> {
      if (!setByUser(base, key)) {
        conf.set(key, value, "joblib4j hdfs-store (S3A reads that see replaced objects)");
      }
    });
    overrides.forEach((key, value) -> conf.set(key, value, "joblib4j store option hadoop." + key));
    // whatever the user or a library set: a store never follows a link (HDFS creates none unless its
    // NameNode enables them, and a client resolves none unless its JVM enables them; this holds either way)
    conf.setBoolean(NO_LINKS, false);
    return conf;
  }

  /** Whether a key comes from anything but Hadoop's own *-default.xml files. */
  /**
   * Sets {@link #QUICK_CLOSE} in {@code target} where {@code base} has no value of its own for the key
   * (also used by the tests' MiniDFSClusters, whose DataNodes close WebHDFS writes with a client of
   * their own).
   */
  public static void applyQuickClose(Configuration base, Configuration target) {
    QUICK_CLOSE.forEach((key, value) -> {
      if (!setByUser(base, key)) {
        target.set(key, value, "joblib4j hdfs-store (close small files without Hadoop's 400 ms first wait)");
      }
    });
  }

  private static boolean setByUser(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null) {
      return false;
    }
    for (String s : sources) {
      if (!s.endsWith("-default.xml")) {
        return true;
      }
    }
    return false;
  }

  /** The active SparkContext's or SparkEnv's Hadoop configuration, or null without Spark. */
  static Configuration fromSpark() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = Configurations.class.getClassLoader();
    }
    try {
      Class<?> contextObject = Class.forName("org.apache.spark.SparkContext$", false, loader);
      Object module = contextObject.getField("MODULE$").get(null);
      Object active = contextObject.getMethod("getActive").invoke(module); // scala.Option
      if ((Boolean) active.getClass().getMethod("isDefined").invoke(active)) {
        Object sc = active.getClass().getMethod("get").invoke(active);
        return (Configuration) sc.getClass().getMethod("hadoopConfiguration").invoke(sc);
      }
      Object env = Class.forName("org.apache.spark.SparkEnv", false, loader).getMethod("get").invoke(null);
      if (env == null) {
        return null;
      }
      Object sparkConf = env.getClass().getMethod("conf").invoke(env);
      Class<?> utilObject = Class.forName("org.apache.spark.deploy.SparkHadoopUtil$", false, loader);
      Object util = utilObject.getField("MODULE$").get(null);
      for (Method m : utilObject.getMethods()) {
        if (m.getName().equals("newConfiguration") && m.getParameterCount() == 1
            && m.getParameterTypes()[0].isInstance(sparkConf)) {
          return (Configuration) m.invoke(util, sparkConf);
        }
      }
      return null;
    } catch (ClassNotFoundException | LinkageError e) {
      return null; // no Spark here
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // a Spark whose API changed: fall back to the class path's configuration
    }
  }
}
