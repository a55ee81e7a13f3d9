package io.joblib4j;

import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;
import io.joblib4j.internal.memory.CacheSettings;
import io.joblib4j.internal.memory.Eviction;
import io.joblib4j.internal.memory.Locations;
import io.joblib4j.internal.memory.Memoizer;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.support.ByteSizes;
import java.io.Serial;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * joblib's disk cache of function results: a memoized function computes a result once per
 * distinct call and loads it from the store on later calls — in this JVM, the next run, another
 * machine, or a Spark executor sharing the store.
 *
 * <pre>{@code
 * Memory memory = new Memory("/data/cache");              // or "hdfs://namenode/cache"; null disables
 * Fn1<Integer, double[]> g = memory.cache(Signals::hamming);
 * double[] w = g.apply(1024);                              // computed once, then loaded
 * MemorizedResult<double[]> ref = memory.cache(Signals::hamming).callAndShelve(4096);
 * memory.reduceSize("10G", 10_000, Duration.ofDays(30));
 * }</pre>
 *
 * <p>A call is keyed by a content hash of the function's identity (its implementation class and
 * method), its code version (a hash of the bytecode of the method and of the methods of the user's
 * own code it reaches — not libraries' jars, the JDK, Scala, Spark or joblib4j: changing any of
 * them invalidates the function's entries, recompiling unchanged code does not), the values it
 * captured, and the arguments. The README's Memory section lists exactly what does and does not
 * give a call a new entry. Results are stored in joblib4j's container format; loading refuses classes outside
 * the allow-list, so an entry cannot run code. Exceptions are never cached. A result that cannot be
 * stored (disk full, store down, not serializable) is returned anyway, with a warning; an entry
 * found damaged is recomputed, with a warning — never a wrong value.
 *
 * <p>The location's scheme picks the store: a plain path or {@code file:} is the built-in local
 * store; {@code hdfs:}, {@code s3a:}, {@code abfs:}, ... come from joblib4j-hdfs-store. A {@code
 * Memory} is serializable (the store is reopened where it lands), and so are its memoized
 * functions.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Memory implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /**
   * Where and how this Memory caches: its location and store options, not an open store (a copy
   * sent to another JVM opens its own).
   */
  private final CacheSettings settings;

  private Memory(CacheSettings settings) {
    this.settings = settings;
  }

  /**
   * A cache at {@code location}: a local folder path, or a URI whose scheme selects the store
   * ({@code file:/...}, {@code hdfs://...}). {@code null} disables caching: memoized functions then
   * always compute.
   *
   * @param location a path, a URI, or {@code null}
   * @throws IllegalArgumentException if the location is a local file (or lies under one), which can
   *     never hold a cache
   */
  public Memory(String location) {
    this(builder(location).settings());
  }

  /**
   * A cache in the local folder {@code location} (created if needed).
   *
   * @param location the folder
   * @throws IllegalArgumentException if {@code location} is a file (or lies under one)
   */
  public Memory(Path location) {
    this(builder(location).settings());
  }

  /**
   * A cache at {@code location}, by its scheme.
   *
   * @param location {@code file:}, {@code hdfs:}, ... as the installed stores serve
   */
  public Memory(URI location) {
    this(builder(location).settings());
  }

  /**
   * A cache in {@code store}.
   *
   * @param store an open store; its location is the Memory's
   */
  public Memory(Store store) {
    this(builder(store).settings());
  }

  /**
   * A Memory that caches nothing (joblib's {@code Memory(None)}).
   *
   * @return a Memory whose memoized functions always compute
   */
  public static Memory disabled() {
    return new Memory((String) null);
  }

  /**
   * A builder for a cache at {@code location} (null: disabled).
   *
   * @param location a path, a URI, or {@code null}
   * @return the builder
   */
  public static Builder builder(String location) {
    return new Builder(location == null ? null : location.trim(), null);
  }

  /**
   * A builder for a cache in the local folder {@code location}.
   *
   * @param location the folder
   * @return the builder
   */
  public static Builder builder(Path location) {
    return new Builder(Objects.requireNonNull(location, "location").toAbsolutePath().toString(), null);
  }

  /**
   * A builder for a cache at {@code location}.
   *
   * @param location a URI whose scheme selects the store
   * @return the builder
   */
  public static Builder builder(URI location) {
    return new Builder(Objects.requireNonNull(location, "location").toString(), null);
  }

  /**
   * A builder for a cache in {@code store}.
   *
   * @param store an open store
   * @return the builder
   */
  public static Builder builder(Store store) {
    Objects.requireNonNull(store, "store");
    return new Builder(store.location().toString(), store);
  }

  // The functions' parameters carry no wildcards (Fn1<? super A, ? extends R>) on purpose, here
  // and in eval, Delayed.delayed and Parallel.map: Scala 2.12 cannot infer A and R through them
  // when it converts a method value (memory.cache(f _)), and Java infers the same types without.
  /**
   * The memoized version of {@code fn}.
   *
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <R> MemoizedFn0<R> cache(Fn0<R> fn) {
    return Memoizer.memoize(this, settings, fn, 0);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, R> MemoizedFn1<A, R> cache(Fn1<A, R> fn) {
    return Memoizer.memoize(this, settings, fn, 1);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, B, R> MemoizedFn2<A, B, R> cache(Fn2<A, B, R> fn) {
    return Memoizer.memoize(this, settings, fn, 2);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, B, C, R> MemoizedFn3<A, B, C, R> cache(Fn3<A, B, C, R> fn) {
    return Memoizer.memoize(this, settings, fn, 3);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, B, C, D, R> MemoizedFn4<A, B, C, D, R> cache(Fn4<A, B, C, D, R> fn) {
    return Memoizer.memoize(this, settings, fn, 4);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, B, C, D, E, R> MemoizedFn5<A, B, C, D, E, R> cache(Fn5<A, B, C, D, E, R> fn) {
    return Memoizer.memoize(this, settings, fn, 5);
  }

  /**
   * The memoized version of {@code fn}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <F> the type of the sixth argument
   * @param <R> the result type
   * @param fn the function: a method reference, a lambda or a function object
   * @return the memoized function, of the same arity; call it as {@code fn} would be called
   */
  public <A, B, C, D, E, F, R> MemoizedFn6<A, B, C, D, E, F, R> cache(Fn6<A, B, C, D, E, F, R> fn) {
    return Memoizer.memoize(this, settings, fn, 6);
  }

  /**
   * {@code cache(fn).apply()} (joblib's {@code Memory.eval}).
   *
   * @param <R> the result type
   * @param fn the function
   * @return the cached result, computed and stored first if there is none
   */
  public <R> R eval(Fn0<R> fn) {
    return cache(fn).apply();
  }

  /**
   * {@code cache(fn).apply(a)}.
   *
   * @param <A> the type of the first argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, R> R eval(Fn1<A, R> fn, A a) {
    return this.<A, R>cache(fn).apply(a);
  }

  /**
   * {@code cache(fn).apply(a, b)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, B, R> R eval(Fn2<A, B, R> fn, A a, B b) {
    return this.<A, B, R>cache(fn).apply(a, b);
  }

  /**
   * {@code cache(fn).apply(a, b, c)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, B, C, R> R eval(Fn3<A, B, C, R> fn, A a, B b, C c) {
    return this.<A, B, C, R>cache(fn).apply(a, b, c);
  }

  /**
   * {@code cache(fn).apply(a, b, c, d)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, B, C, D, R> R eval(Fn4<A, B, C, D, R> fn,
      A a, B b, C c, D d) {
    return this.<A, B, C, D, R>cache(fn).apply(a, b, c, d);
  }

  /**
   * {@code cache(fn).apply(a, b, c, d, e)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, B, C, D, E, R> R eval(Fn5<A, B, C, D, E, R> fn,
      A a, B b, C c, D d, E e) {
    return this.<A, B, C, D, E, R>cache(fn).apply(a, b, c, d, e);
  }

  /**
   * {@code cache(fn).apply(a, b, c, d, e, f)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <F> the type of the sixth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @param f the sixth argument
   * @return the cached result, computed and stored first if there is none
   */
  public <A, B, C, D, E, F, R> R eval(
      Fn6<A, B, C, D, E, F, R> fn,
      A a, B b, C c, D d, E e, F f) {
    return this.<A, B, C, D, E, F, R>cache(fn).apply(a, b, c, d, e, f);
  }

  /**
   * Deletes every cached result: the folder of each memoized function in the store. Nothing else at
   * the location is touched — a {@code ChunkedArray} or files of your own kept there stay, and so does
   * the {@code .gitignore}.
   *
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only}
   */
  public void clear() {
    settings.checkWritable("clear the cache");
    Memoizer.clearAll(settings);
  }

  /**
   * Deletes least recently used entries until the cache holds at most {@code bytesLimit} ({@code
   * "10G"}, {@code "500M"}, a number of bytes, or null for no limit) and {@code itemsLimit} entries
   * (null: no limit), and no entry older than {@code ageLimit} (null: no limit). Returns how many
   * entries were deleted.
   *
   * @param bytesLimit the most bytes to keep, e.g. {@code "10G"}, or null
   * @param itemsLimit the most entries to keep, or null
   * @param ageLimit the oldest an entry may be, or null
   * @return the number of entries deleted
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only}
   */
  public int reduceSize(String bytesLimit, Integer itemsLimit, Duration ageLimit) {
    return reduceSize(bytesLimit == null ? null : ByteSizes.parse(bytesLimit), itemsLimit, ageLimit);
  }

  /**
   * Like {@link #reduceSize(String, Integer, Duration)} with a byte count.
   *
   * @param bytesLimit the most bytes to keep, or null
   * @param itemsLimit the most entries to keep, or null
   * @param ageLimit the oldest an entry may be, or null
   * @return the number of entries deleted
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only}
   */
  public int reduceSize(Long bytesLimit, Integer itemsLimit, Duration ageLimit) {
    if (ageLimit != null && ageLimit.isNegative()) {
      throw new IllegalArgumentException("ageLimit has to be a positive duration, got " + ageLimit);
    }
    if (bytesLimit != null && bytesLimit < 0 || itemsLimit != null && itemsLimit < 0) {
      throw new IllegalArgumentException("reduceSize limits must not be negative");
    }
    settings.checkWritable("reduce the cache's size");
    return Eviction.reduce(settings, bytesLimit, itemsLimit, ageLimit);
  }

  /**
   * What the cache holds: every entry of every function at the location, from one listing of the
   * store (names, sizes and times only, so that a cache of 100,000 entries lists in about the time a
   * recursive listing of its folder takes; {@link CacheEntry#arguments()} is empty and {@link
   * CacheEntry#duration()} null), with the totals per function. {@link #entries(boolean)} also reads
   * each entry's metadata.
   *
   * @return the listing, least recently used first; empty for a disabled Memory
   * @throws java.io.UncheckedIOException if the store cannot be listed
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public CacheListing entries() {
    return entries(false);
  }

  /**
   * As {@link #entries()}; with {@code details}, each entry's {@code metadata.json} is read too
   * (arguments, duration, code version): one read per entry.
   *
   * @param details whether to read each entry's metadata
   * @return the listing, least recently used first; empty for a disabled Memory
   * @throws java.io.UncheckedIOException if the store cannot be listed
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public CacheListing entries(boolean details) {
    if (!enabled()) {
      return new CacheListing(null, java.util.List.of());
    }
    Store store = settings.store();
    try {
      return new CacheListing(location(), io.joblib4j.internal.memory.Catalog.entries(store, "", details));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot list the cache at " + store.location(), e);
    }
  }

  /**
   * How this Memory's memoized functions' calls went in this JVM: hits, misses by reason, stores.
   *
   * @return a snapshot of the counters
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public CacheStats stats() {
    return settings.stats().snapshot();
  }

  /** Sets this JVM's counters of {@link #stats()} to 0. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public void resetStats() {
    settings.stats().reset();
  }

  /**
   * The limits this Memory keeps after every store ({@link Builder#bytesLimit(String)}, ...).
   *
   * @return the limits, {@link CacheLimits#none()} if there are none
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public CacheLimits limits() {
    return settings.limits() == null ? CacheLimits.none() : settings.limits();
  }

  /**
   * Deletes least recently used entries until the cache is within {@code limits}, and every entry
   * unused for longer than its age limit; with {@code dryRun}, deletes nothing and reports what it
   * would delete. An entry this JVM is reading is never deleted; a reader in another JVM whose entry
   * is deleted recomputes it.
   *
   * @param limits the limits to apply
   * @param dryRun whether to only report
   * @return what was (or would be) removed, and what remains
   * @throws java.io.UncheckedIOException if the store cannot be listed or an entry not deleted
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only} and
   *     {@code dryRun} is false
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public PruneReport prune(CacheLimits limits, boolean dryRun) {
    Objects.requireNonNull(limits, "limits");
    if (!enabled()) {
      return new PruneReport(dryRun, java.util.List.of(), 0, 0, 0);
    }
    if (!dryRun) {
      settings.checkWritable("prune the cache (a dry run only reads it)");
    }
    try {
      return io.joblib4j.internal.memory.Eviction.prune(settings, limits, dryRun);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot prune the cache at " + location(), e);
    }
  }

  /**
   * Deletes one entry, or all of one function's entries, by its path as {@link CacheEntry#path()}
   * or {@link CacheEntry#functionFolder()} give it ({@code joblib4j rm}). Nothing else can be deleted
   * this way: a path that names neither is refused.
   *
   * @param path an entry's path ({@code <function folder>/<key>}) or a function's folder
   * @return whether something was there to delete
   * @throws IllegalArgumentException if {@code path} is neither an entry nor a function folder
   * @throws java.io.UncheckedIOException if the store cannot delete it
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only}
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public boolean remove(String path) {
    Objects.requireNonNull(path, "path");
    if (!enabled()) {
      return false;
    }
    settings.checkWritable("remove " + path);
    try {
      return io.joblib4j.internal.memory.Catalog.remove(settings, path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot delete " + path + " from " + location(), e);
    }
  }

  /**
   * Checks the cache: reads every entry's result and compares its size and CRC32C with what its
   * metadata records, and looks for files in the functions' folders that Memory did not write, files
   * it could not read, and temporaries of writers that died (older than an hour). With {@code repair},
   * deletes the damaged entries (recomputed at their next call) and the temporaries. Foreign files and
   * unreadable entries are only reported: what is not Memory's by its own record ({@link
   * io.joblib4j.spi.upkeep.Holdings}), and what could not be read, is never deleted.
   *
   * @param repair whether to delete damaged entries and abandoned temporaries
   * @return what was found
   * @throws java.io.UncheckedIOException if the store cannot be listed or read
   * @throws IllegalStateException if this Memory is {@linkplain Builder#readOnly() read-only} and
   *     {@code repair} is true
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public VerifyReport verify(boolean repair) {
    if (!enabled()) {
      return new VerifyReport(0, java.util.List.of(), repair);
    }
    if (repair) {
      settings.checkWritable("repair the cache (verify(false) only reads it)");
    }
    try {
      return io.joblib4j.internal.memory.Verifier.verify(settings, repair);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot verify the cache at " + location() + ": "
          + io.joblib4j.spi.support.IoCauses.describe(e) + " (" + e.getMessage() + ")", e);
    }
  }

  /**
   * The location, or null when caching is disabled.
   *
   * @return the location as given (a path or a URI), or null
   */
  public String location() {
    return settings.location();
  }

  /**
   * Whether this Memory caches anything.
   *
   * @return false for a disabled Memory
   */
  public boolean enabled() {
    return settings.location() != null;
  }

  @Override
  public String toString() {
    return "Memory(location=" + settings.location() + ")";
  }

  /** Options of a {@link Memory}; every memoized function inherits them unless it sets its own. */
  @API(status = API.Status.STABLE, since = "0.1")
  public static final class Builder {
    private final String location;
    private final Store store;
    private final Map<String, Object> storeOptions = new LinkedHashMap<>();
    private int verbose = 1;
    private Compress compress = Compress.none();
    private MmapMode mmapMode;
    private Clock clock = Clock.systemUTC();
    private final java.util.Set<String> allowed = new java.util.LinkedHashSet<>();
    private final java.util.Set<String> allowedPackages = new java.util.LinkedHashSet<>();
    private boolean trusted;
    private Duration claimLease;
    private Duration claimWait;
    private CacheLimits limits = CacheLimits.none();
    private boolean readOnly;

    private Builder(String location, Store store) {
      if (location != null && location.isEmpty()) {
        throw new IllegalArgumentException("Memory location is empty; pass null to disable caching");
      }
      if (store == null) {
        Locations.checkUsable(location); // a file is refused now, not by every call computing uncached
      }
      this.location = location;
      this.store = store;
    }

    /**
     * 0 silent; 1 (the default, as joblib) prints each computation; above 1 also loads.
     *
     * @param level the verbosity, 0 or more
     * @return this builder
     */
    public Builder verbose(int level) {
      if (level < 0) {
        throw new IllegalArgumentException("verbose must be >= 0, got " + level);
      }
      this.verbose = level;
      return this;
    }

    /**
     * Compresses stored results; compressed results cannot be memory-mapped.
     *
     * @param compress how stored results are compressed
     * @return this builder
     */
    public Builder compress(Compress compress) {
      this.compress = Objects.requireNonNull(compress, "compress");
      return this;
    }

    /**
     * Loads cached arrays memory-mapped ({@code READ_ONLY} or {@code COPY_ON_WRITE}).
     *
     * @param mode {@link MmapMode#READ_ONLY} or {@link MmapMode#COPY_ON_WRITE}
     * @return this builder
     */
    public Builder mmapMode(MmapMode mode) {
      this.mmapMode = Memoizer.checkMmapMode(mode);
      return this;
    }

    /**
     * The time source for metadata, expiry and {@code reduceSize}; serializable.
     *
     * @param clock a serializable clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      if (!(clock instanceof Serializable)) {
        throw new IllegalArgumentException("the clock must be Serializable (Memory travels to other JVMs)");
      }
      this.clock = clock;
      return this;
    }

    /**
     * An option for the store, e.g. for joblib4j-hdfs-store.
     *
     * @param key the option's name, as the store documents it
     * @param value its value
     * @return this builder
     */
    public Builder storeOption(String key, Object value) {
      storeOptions.put(Objects.requireNonNull(key, "key"), value);
      return this;
    }

    /**
     * Allows these classes in cached results, beyond the default allow-list.
     *
     * @param classes classes cached results may contain
     * @return this builder
     */
    public Builder allow(Class<?>... classes) {
      for (Class<?> c : classes) {
        allowed.add(c.getName());
      }
      return this;
    }

    /**
     * Allows every class of these packages in cached results.
     *
     * @param packages package names, e.g. {@code com.acme.model}
     * @return this builder
     */
    public Builder allowPackages(String... packages) {
      allowedPackages.addAll(java.util.Arrays.asList(packages));
      return this;
    }

    /**
     * Loads any class from the store: only for a store nobody else can write to, since whoever
     * can write it can then make this JVM run code.
     *
     * @return this builder
     */
    public Builder trusted() {
      this.trusted = true;
      return this;
    }

    /**
     * Computes a missing result once per store, not once per JVM: before computing, a JVM takes a
     * claim on the entry in the store, and other JVMs (child processes, Spark executors, other
     * programs) asking for it meanwhile wait for its result instead of computing it too. A claim
     * lives 30 seconds unless its holder renews it (it does, every 10 seconds, while it computes), so
     * a JVM that dies holding one delays the others by 30 seconds at most; a waiter computes itself
     * after 30 minutes in any case. Costs a small write and a delete in the store per miss. Within
     * one JVM, threads asking for the same entry always wait for the one computing it.
     *
     * @return this builder
     */
    public Builder claimComputations() {
      return claimComputations(io.joblib4j.internal.memory.Memoizer.DEFAULT_CLAIM_LEASE,
          io.joblib4j.internal.memory.Memoizer.DEFAULT_CLAIM_WAIT);
    }

    /**
     * As {@link #claimComputations()}, with the claim's {@code lease} (how long a claim lives
     * unless renewed: how long a dead holder delays the others) and {@code maxWait} (how long a
     * JVM waits for another's computation in all before computing itself).
     *
     * @param lease how long a claim lives unless renewed; positive
     * @param maxWait how long to wait for another JVM in all; not negative
     * @return this builder
     * @throws IllegalArgumentException if {@code lease} is not positive or {@code maxWait} negative
     */
    public Builder claimComputations(Duration lease, Duration maxWait) {
      Objects.requireNonNull(lease, "lease");
      Objects.requireNonNull(maxWait, "maxWait");
      if (lease.isNegative() || lease.isZero() || maxWait.isNegative()) {
        throw new IllegalArgumentException("claimComputations needs a positive lease and a wait that is not"
            + " negative, got lease " + lease + " and maxWait " + maxWait);
      }
      this.claimLease = lease;
      this.claimWait = maxWait;
      return this;
    }

    /**
     * Keeps the cache at most {@code size} large: after stores, least recently used entries are
     * deleted (down to 90% of the limit, so that the next pruning is a while away). Cheap on every
     * store: each JVM keeps a running total (its last listing plus what it stored since) and lists the
     * cache only at its first store, when the total passes a limit, or when its last listing is older
     * than 30 seconds.
     *
     * <p>The promise, whatever threads get the CPU when: with N JVMs storing into the location, the
     * cache holds at most N times {@code size}, plus the entries whose stores are under way at that
     * moment (at most one per storing thread); once those stores have returned, at most N times
     * {@code size}, also when a JVM exits right after its last store. A JVM writing alone keeps the
     * cache within {@code size} in the same way. It holds because a store that takes its JVM's total
     * past the limit does not return before a listing has counted it and pruned: its thread lists and
     * prunes, or waits for the thread of its JVM that is doing so, even while another JVM's pruner is
     * stalled. Only what the other JVMs stored since their own last listings can come on top, each at
     * most {@code size} less what its last listing left (after a listing that pruned: a tenth of the
     * limit and one entry). Not counted: an entry being read in the pruning JVM, which is never
     * deleted (a reader in another JVM whose entry was pruned recomputes it), an entry the store
     * refuses to delete, and stores while the store cannot be listed.
     *
     * @param size {@code "50G"}, {@code "500M"}, or a number of bytes
     * @return this builder
     * @throws IllegalArgumentException if {@code size} is not a size
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder bytesLimit(String size) {
      this.limits = limits.bytes(ByteSizes.parse(Objects.requireNonNull(size, "size")));
      return this;
    }

    /**
     * As {@link #bytesLimit(String)}, in bytes.
     *
     * @param bytes the most bytes to keep; not negative
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder bytesLimit(long bytes) {
      this.limits = limits.bytes(bytes);
      return this;
    }

    /**
     * Keeps at most {@code items} entries, as {@link #bytesLimit(String)} keeps bytes, with the same
     * promise counted in entries: with N JVMs storing, at most N times {@code items} entries, plus one
     * per thread whose store is under way; at most N times {@code items} once the stores have
     * returned.
     *
     * @param items the most entries to keep; not negative
     * @return this builder
     * @throws IllegalArgumentException if {@code items} is negative
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder itemsLimit(long items) {
      this.limits = limits.items(items);
      return this;
    }

    /**
     * Deletes entries unused for longer than {@code age}, checked when a store lists the cache (at
     * most every 30 seconds per JVM).
     *
     * @param age the longest an entry may stay unused
     * @return this builder
     * @throws IllegalArgumentException if {@code age} is negative
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder ageLimit(Duration age) {
      this.limits = limits.age(age);
      return this;
    }

    /**
     * Keeps all of {@code limits} after every store (replacing those set before).
     *
     * @param limits the limits
     * @return this builder
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder limits(CacheLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * Opens the cache for looking only: the Memory never writes to its location. {@link
     * Memory#entries()}, {@link Memory#stats()}, {@link Memory#verify(boolean) verify(false)}, {@link
     * Memory#prune(CacheLimits, boolean) prune(limits, true)} and memoized functions' {@code
     * entries()} and {@code explain(...)} read the cache as it is — no {@code .gitignore} written, no
     * temporaries of dead writers swept, no access time recorded — so they work on a location this
     * JVM may only read, and leave it unchanged. Memoized functions load what is stored and compute
     * what is not without storing it. What would change the cache ({@link Memory#clear()}, {@code
     * reduceSize}, {@code prune} without a dry run, {@code remove}, {@code verify(true)}, a memoized
     * function's or a shelved result's {@code clear()}) throws {@link IllegalStateException}. A local
     * folder that does not exist is not created: reading it fails. The {@code joblib4j} command line
     * opens caches this way for {@code ls}, {@code du}, {@code show}, {@code explain} and {@code
     * verify}.
     *
     * @return this builder
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Builder readOnly() {
      this.readOnly = true;
      return this;
    }

    /**
     * The Memory; its store is opened at the first call that needs it.
     *
     * @return the Memory
     */
    public Memory build() {
      return new Memory(settings());
    }

    CacheSettings settings() {
      if (mmapMode != null && !compress.equals(Compress.none())) {
        io.joblib4j.spi.support.Warnings.warn(Memory.class,
            "Compressed results cannot be memory-mapped: mmapMode is ignored for this Memory");
      }
      return new CacheSettings(location, store, storeOptions, verbose, compress, mmapMode, clock,
          allowed, allowedPackages, trusted, claimLease, claimWait, limits, readOnly);
    }
  }
}
