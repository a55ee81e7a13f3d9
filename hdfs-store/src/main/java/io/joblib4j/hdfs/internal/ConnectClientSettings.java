package io.joblib4j.hdfs.internal;

import io.joblib4j.hdfs.HadoopStoreOptions;
import io.joblib4j.spi.support.ClassLookup;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop store opened in a Spark Connect client: there is no SparkContext whose {@code
 * hadoopConfiguration()} would give the cluster's settings (the NameNodes of an HA nameservice,
 * Kerberos, object-store credentials), so the store would start from Hadoop's defaults without a
 * word. It opens only with settings of its own — {@code hadoop.*} store options, or a {@code
 * core-site.xml} on the class path — and otherwise fails at once, naming the feature, Spark Connect
 * as the reason, and the fixes. A JVM with Spark itself (a driver or an executor, even of
 * {@code spark.api.mode=connect}) is not a Connect client. Spark is looked up by class name only.
 */
public final class ConnectClientSettings {
  static final String CONNECT_CLIENT = "org.apache.spark.sql.connect.client.SparkConnectClient";
  static final String SPARK_ENV = "org.apache.spark.SparkEnv";

  private ConnectClientSettings() {}

  /**
   * Fails unless the store at {@code location} has Hadoop settings of its own, when this JVM is a
   * Spark Connect client.
   *
   * @param location the store's location
   * @param options its store options
   * @throws UnsupportedOperationException in a Connect client without settings of the store's own
   */
  public static void require(URI location, Map<String, ?> options) {
    if (!connectClient() || Configurations.fromSpark() != null || ownSettings(options)) {
      return;
    }
    throw new UnsupportedOperationException(feature() + " at " + location + " takes its Hadoop settings from"
        + " the SparkContext's hadoopConfiguration(), and this JVM is a Spark Connect client, which has no"
        + " SparkContext: the store would start from Hadoop's defaults, not the cluster's settings. Give it"
        + " settings of its own: store options " + HadoopStoreOptions.HADOOP_PREFIX + "<key> (for instance"
        + " Memory.builder(location).storeOption(\"" + HadoopStoreOptions.HADOOP_PREFIX + "fs.defaultFS\", ...),"
        + " or ChunkedArray.create(location, Map.of(\"" + HadoopStoreOptions.HADOOP_PREFIX + "...\", ...), ...)),"
        + " or the cluster's core-site.xml and hdfs-site.xml on the class path. Or use a classic session (a"
        + " dedicated / single-user cluster, spark.api.mode=classic), or a local Memory with"
        + " backend(\"threads\"). Inside tasks on the executors the cluster's settings apply as usual.");
  }

  /** The Connect client without Spark itself. */
  static boolean connectClient() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ConnectClientSettings.class.getClassLoader();
    }
    return ClassLookup.isPresent(CONNECT_CLIENT, loader) && !ClassLookup.isPresent(SPARK_ENV, loader);
  }

  private static boolean ownSettings(Map<String, ?> options) {
    for (String key : options.keySet()) {
      if (key.startsWith(HadoopStoreOptions.HADOOP_PREFIX)) {
        return true;
      }
    }
    return new Configuration(false).getResource("core-site.xml") != null;
  }

  /** What opened the store, for the message. */
  private static String feature() {
    return StackWalker.getInstance().walk(frames -> frames
        .map(StackWalker.StackFrame::getClassName)
        .filter(c -> c.equals("io.joblib4j.hdfs.ChunkedArray") || c.startsWith("io.joblib4j.Memory")
            || c.startsWith("io.joblib4j.internal.memory."))
        .findFirst()
        .map(c -> c.equals("io.joblib4j.hdfs.ChunkedArray") ? "ChunkedArray" : "Memory")
        .orElse("A Hadoop store"));
  }
}
