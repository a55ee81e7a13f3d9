package io.joblib4j.hdfs;

import org.apiguardian.api.API;

/**
 * The options of the Hadoop store, given as {@code Memory.builder(location).storeOption(key, value)}
 * or to {@link HadoopStores#open(java.net.URI, org.apache.hadoop.conf.Configuration, java.util.Map)}.
 * Values may be strings, so that they can come from a properties file or a Spark conf; an unknown
 * key is an error listing these.
 *
 * <pre>{@code
 * Memory memory = Memory.builder("s3a://bucket/cache")
 *     .storeOption(HadoopStoreOptions.LOCAL_CACHE_SIZE, "50G")
 *     .storeOption("hadoop.fs.s3a.endpoint", "https://minio.example:9000")
 *     .build();
 * }</pre>
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class HadoopStoreOptions {
  /**
   * How entries are published: {@code "rename"} (write a temporary folder, then rename it into
   * place — for file systems whose rename is atomic: hdfs, viewfs, webhdfs, file) or {@code
   * "marker"} (write the final files once, then a commit marker — for object stores: s3a, gs, abfs,
   * wasb, and any scheme not known to rename atomically). The default follows the scheme.
   */
  public static final String COMMIT = "commit";

  /**
   * The folder of this machine's read-through cache of store files that are memory-mapped (shared
   * by every JVM of the user on the machine). Default: {@code $JOBLIB4J_LOCAL_CACHE}, else {@code
   * <java.io.tmpdir>/joblib4j-<user>/store-cache}, where {@code joblib4j-<user>} must be a folder
   * only this user may enter ({@code rwx------}, made so if absent): a mapped load fails with an
   * error saying so otherwise.
   */
  public static final String LOCAL_CACHE_DIR = "localCacheDir";

  /** The size the local cache is kept under, least recently used copies first out: {@code "10G"} (the default), bytes. */
  public static final String LOCAL_CACHE_SIZE = "localCacheSize";

  /**
   * Accepted for compatibility and unused: object stores' writers no longer take claims, so none
   * waits for another (earlier versions: how long a writer that found another writer's claim waited
   * for its commit). Durations are {@code 500ms}, {@code 30s}, {@code 5m} or ISO-8601 ({@code PT30S}).
   */
  public static final String PUBLISH_WAIT = "publishWait";

  /**
   * After the file system could not be reached (NameNode down or frozen, network), how long every
   * call to it fails at once instead of waiting for connection or RPC timeouts again — from every
   * store on that file system in the JVM, including stores opened meanwhile. Then one call tries
   * again while the others still fail at once. Default {@code 15s}.
   */
  public static final String OUTAGE_BACKOFF = "outageBackoff";

  /**
   * How long {@code sweep} waits for HDFS to recover the lease of a file a dead writer left open,
   * before it deletes the writer's temporary anyway. Default {@code 120s}.
   */
  public static final String LEASE_RECOVERY_TIMEOUT = "leaseRecoveryTimeout";

  /**
   * Prefix for Hadoop configuration keys set on the store's own FileSystem instance: {@code
   * "hadoop.fs.s3a.endpoint"} sets {@code fs.s3a.endpoint}. Unlike a Configuration given in code,
   * these travel with a {@code Memory} to Spark executors.
   */
  public static final String HADOOP_PREFIX = "hadoop.";

  private HadoopStoreOptions() {}
}
