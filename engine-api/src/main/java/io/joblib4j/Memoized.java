package io.joblib4j;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * What every memoized function ({@code MemoizedFn0} ... {@code MemoizedFn6}) offers besides being
 * called. Options return a new memoized function sharing the same cache entries; the original is
 * unchanged. Memoized functions are serializable, so they can be {@code delayed} and shipped to
 * child JVMs and Spark executors, which read and write the same store.
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface Memoized extends java.io.Serializable {

  /**
   * Leaves the arguments at these 0-based positions out of the call key (joblib's {@code ignore}):
   * calls that differ only there share an entry. For a verbose flag, a logger, a thread count.
   */
  Memoized ignore(int... positions);

  /**
   * Leaves the named arguments out of the call key. Names are read from the class file: from
   * {@code -parameters} for methods, from debug information (javac {@code -g}, Maven's default)
   * for lambdas; without either this fails, saying so.
   */
  Memoized ignore(String... names);

  /**
   * Loads cached arrays memory-mapped ({@code READ_ONLY} or {@code COPY_ON_WRITE}; entries are
   * immutable, so {@code READ_WRITE} is refused). Even the first call returns the mapped value.
   */
  Memoized mmapMode(MmapMode mode);

  /** Compresses stored results (same values as {@link Joblib#dump}); compressed results are not mapped. */
  Memoized compress(Compress compress);

  /** 0 silent; above 0 prints what is computed; above 1 what is loaded; above 10 the details. */
  Memoized verbose(int level);

  /** Uses a cached result only if {@code validation} accepts its metadata. */
  Memoized validation(CacheValidation validation);

  /** Uses a cached result only while it is younger than {@code age}. */
  Memoized expiresAfter(Duration age);

  /**
   * Allows these classes in cached results beyond the default allow-list (JDK values and
   * collections, records, enums, joblib4j's types, the function's declared result type).
   */
  Memoized allow(Class<?>... classes);

  /** Deletes every cached result of this function. */
  void clear();

  /** The function's short name ({@code Signals.hamming}). */
  String function();

  /** The {@link Memory} this function caches in. */
  Memory memory();
}
