package io.joblib4j.spark.stages;

import io.joblib4j.FunctionFingerprint;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.spark.stages.internal.StageSettings;
import io.joblib4j.spark.stages.internal.ConnectSessions;
import io.joblib4j.spark.stages.internal.EntryCatalog;
import io.joblib4j.spark.stages.internal.StageLayout;
import io.joblib4j.spark.stages.internal.StageRunner;
import io.joblib4j.spark.stages.internal.StageSpec;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import io.joblib4j.spi.support.ByteSizes;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apiguardian.api.API;

/**
 * joblib's {@code memory.cache} for Spark pipeline stages: a stage (a function from Datasets and plain
 * values to a Dataset) is computed once, kept as Parquet files at the cache's location (HDFS, a local
 * folder, any Hadoop FileSystem), and read back on later calls, in later jobs and notebooks, until
 * its code, its inputs or its arguments change.
 *
 * <pre>{@code
 * StageCache stages = StageCache.at(spark, "hdfs://namenode:8020/pipeline-cache");
 * Stage1<Dataset<Row>> clean = stages.cache(Pipeline::clean);
 * Dataset<Row> events = clean.apply(rawEvents);   // first run: computed, written, read back; then read back
 * }</pre>
 *
 * <p>The key: the stage function's identity, code version and captured values (as {@code Memory}
 * keys functions), each plain argument ({@code Joblib.hash}), and for each Dataset argument its
 * analyzed plan in canonical form, the code of its UDFs and typed operations, and its inputs' files
 * (path, and the length, modification time and store identity storage lists for them when the stage
 * is called: the folders are listed again at each call), a Delta table's id and version (read at that version when
 * the stage computes), local rows, or the key of the stage that wrote them; with the
 * Spark version and the SQL settings that change results. What cannot be keyed is refused with a
 * {@link StageKeyException}. The README's "Pipeline stages" lists what gives a new entry.
 *
 * <p>Entries are published atomically: each attempt writes its own folder and a record is then
 * published through the location's store (a rename on HDFS, a commit marker on object stores), so
 * concurrent runs, task retries and killed drivers never leave anything a later run reads.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class StageCache {
  private static final Set<String> FORMATS = Set.of("parquet", "orc");
  private final StageRunner runner;
  private final String location;

  private StageCache(StageRunner runner, String location) {
    this.runner = runner;
    this.location = location;
  }

  /**
   * A stage cache with the default settings (Parquet, the format's default compression, no limits).
   *
   * @param spark the session stages run in
   * @param location a local path, a {@code file:} URI, or a Hadoop URI ({@code hdfs://nn:8020/cache};
   *     other schemes with joblib4j-hdfs-store on the class path)
   * @return the stage cache
   * @throws UnsupportedOperationException on a Spark Connect session
   * @throws IllegalArgumentException if no store serves the location
   */
  public static StageCache at(SparkSession spark, String location) {
    return builder(spark, location).build();
  }

  /**
   * A builder of a stage cache with options.
   *
   * @param spark the session stages run in
   * @param location as for {@link #at}
   * @return the builder
   */
  public static Builder builder(SparkSession spark, String location) {
    return new Builder(spark, location);
  }

  /**
   * A cached stage of one argument.
   *
   * @param stage the stage function: a method reference ({@code Pipeline::clean}) or lambda
   * @param <A> the argument's type: a {@code Dataset} or a plain value
   * @return the cached stage
   */
  public <A> Stage1<A> cache(Fn1<A, ? extends Dataset<?>> stage) {
    return new Stage1<>(runner, StageSpec.of(stage, 1));
  }

  /**
   * A cached stage of two arguments.
   *
   * @param stage the stage function
   * @param <A> the type of argument 1
   * @param <B> the type of argument 2
   * @return the cached stage
   */
  public <A, B> Stage2<A, B> cache(Fn2<A, B, ? extends Dataset<?>> stage) {
    return new Stage2<>(runner, StageSpec.of(stage, 2));
  }

  /**
   * A cached stage of three arguments.
   *
   * @param stage the stage function
   * @param <A> the type of argument 1
   * @param <B> the type of argument 2
   * @param <C> the type of argument 3
   * @return the cached stage
   */
  public <A, B, C> Stage3<A, B, C> cache(Fn3<A, B, C, ? extends Dataset<?>> stage) {
    return new Stage3<>(runner, StageSpec.of(stage, 3));
  }

  /**
   * A cached stage of four arguments.
   *
   * @param stage the stage function
   * @param <A> the type of argument 1
   * @param <B> the type of argument 2
   * @param <C> the type of argument 3
   * @param <D> the type of argument 4
   * @return the cached stage
   */
  public <A, B, C, D> Stage4<A, B, C, D> cache(Fn4<A, B, C, D, ? extends Dataset<?>> stage) {
    return new Stage4<>(runner, StageSpec.of(stage, 4));
  }

  /**
   * The location, as given.
   *
   * @return the location
   */
  public String location() {
    return location;
  }

  /**
   * The entries at this location, for listing, clearing, pruning and sweeping.
   *
   * @return the catalog (closing it leaves the cache usable)
   */
  public StageCatalog catalog() {
    return StageCatalog.of(runner.catalog());
  }

  /**
   * Every committed entry of every stage at this location.
   *
   * @return the entries
   */
  public List<StageEntry> entries() {
    return catalog().list();
  }

  /**
   * Deletes every stage entry at this location (a {@code Memory} there keeps its entries).
   *
   * @return how many entries there were
   */
  public int clear() {
    return catalog().clearAll();
  }

  /**
   * Deletes entries as {@link StageCatalog#prune} does.
   *
   * @param maxBytes a size such as {@code "50G"}, or null for no size limit
   * @param maxEntries the most entries to keep, or 0 for no limit
   * @param maxAge the longest an entry may go unread, or null for no limit
   * @return the entries deleted
   */
  public List<StageEntry> prune(String maxBytes, int maxEntries, Duration maxAge) {
    return catalog().prune(maxBytes, maxEntries, maxAge);
  }

  static String stageFolderOf(StageSpec spec) {
    FunctionFingerprint f = FunctionFingerprint.of(spec.fn());
    return StageLayout.stageFolder(f.name(), f.identity());
  }

  /** Options of a {@link StageCache}. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public static final class Builder {
    private final SparkSession spark;
    private final String location;
    private String format = "parquet";
    private String compression;
    private long maxBytes;
    private int maxEntries;
    private Duration maxAge;
    private Duration sweepAge = EntryCatalog.DEFAULT_SWEEP_AGE;
    private Clock clock = Clock.systemUTC();
    private boolean inputChecksums;
    private final Map<String, Object> storeOptions = new LinkedHashMap<>();

    private Builder(SparkSession spark, String location) {
      this.spark = Objects.requireNonNull(spark, "spark");
      this.location = Objects.requireNonNull(location, "location");
    }

    /**
     * The data source entries are written in: {@code parquet} (the default) or {@code orc}.
     *
     * @param format the format's name
     * @return this builder
     * @throws IllegalArgumentException for another format
     */
    public Builder format(String format) {
      String f = format.toLowerCase(Locale.ROOT);
      if (!FORMATS.contains(f)) {
        throw new IllegalArgumentException("stage cache format must be one of " + FORMATS + ", got \"" + format
            + "\" (entries are files the cache itself publishes and verifies; a table format such as Delta"
            + " keeps its own log, which the stage cache does not write)");
      }
      this.format = f;
      return this;
    }

    /**
     * The compression codec of every stage's data ({@code snappy}, {@code zstd}, {@code gzip}, {@code
     * none}, ...), unless a stage sets its own.
     *
     * @param codec the codec's name
     * @return this builder
     */
    public Builder compression(String codec) {
      this.compression = Objects.requireNonNull(codec, "compression");
      return this;
    }

    /**
     * After each new entry, delete the least recently read entries until the data of all entries
     * takes at most this much. Held after every new entry this JVM makes; entries other JVMs add
     * count from the next full prune, at most a minute later (README, "Limits").
     *
     * @param size such as {@code "50G"} or {@code "500M"}
     * @return this builder
     * @throws IllegalArgumentException if it is not a size
     */
    public Builder maxBytes(String size) {
      this.maxBytes = ByteSizes.parse(size);
      return this;
    }

    /**
     * After each new entry, delete the least recently read entries until at most this many remain,
     * as {@link #maxBytes} holds its size.
     *
     * @param count a positive count
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder maxEntries(int count) {
      if (count <= 0) {
        throw new IllegalArgumentException("maxEntries must be positive, got " + count);
      }
      this.maxEntries = count;
      return this;
    }

    /**
     * After a new entry, at most once a minute per JVM, delete entries not read for this long (never
     * the entry just published).
     *
     * @param age a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is not positive
     */
    public Builder maxAge(Duration age) {
      if (age == null || age.isZero() || age.isNegative()) {
        throw new IllegalArgumentException("maxAge must be a positive duration, got " + age);
      }
      this.maxAge = age;
      return this;
    }

    /**
     * How old a data folder no entry names must be before a sweep removes it (default 24 hours):
     * longer than your longest stage write, which it could otherwise remove while running.
     *
     * @param age a duration, zero or more
     * @return this builder
     */
    public Builder sweepAge(Duration age) {
      if (age == null || age.isNegative()) {
        throw new IllegalArgumentException("sweepAge must not be negative, got " + age);
      }
      this.sweepAge = age;
      return this;
    }

    /**
     * An option of the location's store (see joblib4j-hdfs-store's {@code HadoopStoreOptions}: {@code
     * commit}, {@code hadoop.*} settings).
     *
     * @param key the option's name
     * @param value its value
     * @return this builder
     */
    public Builder storeOption(String key, Object value) {
      storeOptions.put(key, value);
      return this;
    }

    /**
     * Also key each input file by a checksum of its content, read when the stage is called, where
     * its store gives no identity of its own: on HDFS the NameNode's and DataNodes' file checksum
     * ({@code FileSystem.getFileChecksum}, a call per file and block), on local files a hash of
     * their bytes (the whole input is read). Off by default: a file's path, length, modification
     * time and its store's identity (an object store's ETag, an HDFS file id, a local file's inode
     * and change time) already tell a rewritten file apart, unless the rewrite keeps the same HDFS
     * file (truncate and append) or a local file system keeps change times to the second (docs/stages.md,
     * "Input files, as storage holds them"). Object stores (S3A, ABFS, GCS) are keyed by their ETag either way.
     *
     * @param on whether to checksum input files
     * @return this builder
     */
    public Builder inputChecksums(boolean on) {
      this.inputChecksums = on;
      return this;
    }

    /**
     * The clock of creation and access times (for tests).
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The stage cache.
     *
     * @return the stage cache
     * @throws UnsupportedOperationException on a Spark Connect session, naming what it lacks
     * @throws IllegalArgumentException if no store serves the location
     */
    public StageCache build() {
      ConnectSessions.refuse(spark);
      Store store = Stores.open(location, storeOptions);
      StageSettings settings = new StageSettings(format, compression, maxBytes, maxEntries, maxAge, sweepAge, clock,
          inputChecksums);
      return new StageCache(new StageRunner(spark, store, settings), location);
    }
  }
}
