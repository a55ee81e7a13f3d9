package io.joblib4j.hdfs;

import io.joblib4j.hdfs.internal.Configurations;
import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreProvider;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apiguardian.api.API;

/**
 * Opens {@link Store}s on any Hadoop FileSystem. {@code new Memory("hdfs://nn/cache")} finds this
 * store by its scheme already (ServiceLoader); use this class to give a Configuration in code, to
 * open a store on {@code file:} through Hadoop, or to serve another scheme.
 *
 * <pre>{@code
 * Store store = HadoopStores.open(URI.create("hdfs://nn:8020/cache"), hadoopConf, Map.of());
 * Memory memory = new Memory(store);
 * Stores.register(HadoopStores.provider("cosn"));      // new Memory("cosn://bucket/cache") now works
 * }</pre>
 *
 * <h2>How entries are published</h2>
 *
 * The guarantees of {@link Store} hold on every file system; how they are kept depends on what the
 * file system can do atomically ({@link HadoopStoreOptions#COMMIT} overrides the choice):
 *
 * <ul>
 *   <li><b>Rename</b> (hdfs, viewfs, webhdfs, swebhdfs, file): the entry's files and a manifest are
 *       written to a temporary folder under the root's {@code .jl4j-tmp/}, each hsync'ed before
 *       close, and the folder is renamed onto the entry in one NameNode operation that fails if the
 *       entry exists. The writer that loses verifies the winner's entry (every file of its manifest
 *       there, with its size) and reports it present; Memory uses it.
 *   <li><b>Marker</b> (s3a, gs, abfs, abfss, wasb, wasbs and unknown schemes): object stores rename
 *       by copying, so nothing is renamed, and there is no lease, so no claim is taken. A writer keeps
 *       small files in the manifest and writes larger ones to objects named for its attempt, then
 *       creates the manifest, the commit, last: conditionally ({@code If-None-Match: *}) where the
 *       store has a conditional create, so that of racing writers one publishes and the others use
 *       its entry; elsewhere checked and read back, so that the manifest written last wins. Readers
 *       read only what a manifest names: never a partial or mixed entry.
 * </ul>
 *
 * In both modes entries are immutable once published: nothing is ever written into a published
 * entry (only marker mode's access stamp, a separate empty object), and it changes only by being
 * deleted. Writers that die leave their work under {@code .jl4j-tmp/}, invisible; {@link Store#sweep}
 * removes it, recovering the HDFS lease of any file still open first.
 *
 * <p>For a local folder, prefer the built-in store ({@code new Memory("/data/cache")}): on {@code
 * file:} this store works through Hadoop's local file system, which follows symbolic links planted
 * inside the root, where the built-in store refuses them.
 *
 * <h2>Memory-mapping</h2>
 *
 * {@link Store#localFile} returns a copy on this machine's disk, from a size-bounded read-through
 * cache shared by every JVM of the user ({@link HadoopStoreOptions#LOCAL_CACHE_DIR}): downloaded
 * once, checked against the size and CRC32C its writer recorded, evicted least recently used first.
 * A copy is served only while the remote file is the one it was made from (same publication, size
 * and modification time) and, on HDFS, while the NameNode knows of no block of it corrupt on every
 * replica; such an entry is reported corrupt, so Memory deletes and recomputes it.
 *
 * <h2>Configuration and failures</h2>
 *
 * Without a Configuration given, the store uses the one in scope: the active SparkContext's {@code
 * hadoopConfiguration()} on a driver, the executor's ({@code spark.hadoop.*}) on an executor, else
 * {@code new Configuration()}. The store opens its own FileSystem instance with short IPC retries and
 * timeouts (unless the configuration sets them), and after a file system could not be reached every
 * store on it in the JVM fails at once for {@link HadoopStoreOptions#OUTAGE_BACKOFF}: when the
 * NameNode is down or frozen, Memory warns and computes without the cache, and only the first call
 * waits for a timeout. A block whose every replica fails its checksum is reported as a corrupt
 * entry, which Memory deletes and recomputes; one whose DataNodes are down is an I/O error.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class HadoopStores {
  /** The schemes served through ServiceLoader. */
  public static final Set<String> SCHEMES =
      Set.of("hdfs", "viewfs", "webhdfs", "swebhdfs", "s3a", "gs", "abfs", "abfss", "wasb", "wasbs");

  private HadoopStores() {}

  /**
   * Opens the store at {@code location} with the Hadoop configuration in scope.
   *
   * @param location a Hadoop URI, e.g. {@code hdfs://nn:8020/cache}
   * @return the open store, which the caller closes
   * @throws IOException if the file system cannot be reached or the root created
   */
  public static Store open(String location) throws IOException {
    return open(URI.create(location), Configurations.inScope(), Map.of());
  }

  /**
   * Opens the store at {@code location} with {@code conf}.
   *
   * @param location a Hadoop URI
   * @param conf the Hadoop configuration
   * @return the open store, which the caller closes
   * @throws IOException if the file system cannot be reached or the root created
   */
  public static Store open(URI location, Configuration conf) throws IOException {
    return open(location, conf, Map.of());
  }

  /**
   * Opens the store at {@code location} with {@code conf} (not changed; the store works on a copy)
   * and {@linkplain HadoopStoreOptions options}; the root is created if needed.
   *
   * @param location a Hadoop URI
   * @param conf the Hadoop configuration
   * @param options store options
   * @return the open store, which the caller closes
   * @throws IOException if the file system cannot be reached or the root created
   */
  public static Store open(URI location, Configuration conf, Map<String, ?> options) throws IOException {
    return HadoopStoreOpener.open(location, conf, options);
  }

  /**
   * A provider for more schemes, for {@link io.joblib4j.spi.Stores#register}: any file system Hadoop
   * knows (its {@code fs.<scheme>.impl} is configured) can hold a cache.
   *
   * @param schemes the URI schemes
   * @return the provider
   */
  public static StoreProvider provider(String... schemes) {
    return new HadoopStoreProvider(Set.of(schemes));
  }
}
