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
   *
   * @param positions the positions, from 0: {@code ignore(0)} leaves out the first argument
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized ignore(int... positions);

  /**
   * Leaves the named arguments out of the call key. Names are read from the class file: from
   * {@code -parameters} for methods, from debug information (javac {@code -g}, Maven's default)
   * for lambdas; without either this fails, saying so.
   *
   * @param names the parameter names
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized ignore(String... names);

  /**
   * Loads cached arrays memory-mapped ({@code READ_ONLY} or {@code COPY_ON_WRITE}; entries are
   * immutable, so {@code READ_WRITE} is refused). Even the first call returns the mapped value.
   *
   * @param mode {@link MmapMode#READ_ONLY} or {@link MmapMode#COPY_ON_WRITE}
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized mmapMode(MmapMode mode);

  /**
   * Compresses stored results (same values as {@link Joblib#dump}); compressed results are not
   * mapped.
   *
   * @param compress how to compress stored results
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized compress(Compress compress);

  /**
   * 0 silent; above 0 prints what is computed; above 1 what is loaded; above 10 the details.
   *
   * @param level 0 or more
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized verbose(int level);

  /**
   * Uses a cached result only if {@code validation} accepts its metadata.
   *
   * @param validation decides from an entry's metadata whether it is still valid
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized validation(CacheValidation validation);

  /**
   * Uses a cached result only while it is younger than {@code age}.
   *
   * @param age the age at which an entry is computed again
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized expiresAfter(Duration age);

  /**
   * Allows these classes in cached results beyond the default allow-list (JDK values and
   * collections, records, enums, joblib4j's types, the function's declared result type).
   *
   * @param classes classes cached results may contain
   * @return a memoized function with this option, sharing the cache entries of this one
   */
  Memoized allow(Class<?>... classes);

  /**
   * This function's stored entries, with what each entry's {@code metadata.json} records (arguments,
   * duration, code version), least recently used first.
   *
   * @return the listing; empty for a disabled Memory
   * @throws java.io.UncheckedIOException if the store cannot be listed
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  CacheListing entries();

  /** Deletes every cached result of this function. */
  void clear();

  /**
   * The function's short name ({@code Signals.hamming}).
   *
   * @return the name, as Memory's lines and task descriptions give it
   */
  String function();

  /**
   * The {@link Memory} this function caches in.
   *
   * @return the memory
   */
  Memory memory();
}
