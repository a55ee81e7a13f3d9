package io.joblib4j;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One cached result as {@link Memory#entries()} lists it.
 *
 * <p>A plain listing reads only the store's listing (names, sizes, times), so that listing a cache of
 * 100,000 entries costs about what a recursive listing of its folder costs: {@link #arguments()} is
 * then empty and {@link #duration()} null. A detailed listing ({@link Memory#entries(boolean)},
 * {@link Memoized#entries()}) also reads each entry's {@code metadata.json} and fills them in.
 *
 * @param function the function's short name ({@code Signals.hamming}), from its {@code function.json},
 *     else from its folder's name
 * @param functionFolder the function's folder in the store ({@code Signals.hamming-1a2b3c4d5e6f})
 * @param key the call key (32 hex digits), the entry folder's name
 * @param codeVersion the code version the entry was computed with, or null where not read (plain listing)
 * @param arguments a short description of each argument by name or position, where recorded and read
 * @param sizeBytes the bytes the entry's files take in the store
 * @param created when the entry was stored
 * @param lastAccess when it was last read (recorded at most once a minute per JVM), or created if never
 * @param duration how long the computation took, or null where not read or not recorded
 * @param path the entry's folder in the store, relative to its location
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CacheEntry(
    String function,
    String functionFolder,
    String key,
    String codeVersion,
    Map<String, String> arguments,
    long sizeBytes,
    Instant created,
    Instant lastAccess,
    Duration duration,
    String path) {

  /**
   * Checks and copies the fields.
   *
   * @param function the function's short name
   * @param functionFolder the function's folder in the store
   * @param key the call key
   * @param codeVersion the code version, or null
   * @param arguments the arguments' descriptions (empty if not read)
   * @param sizeBytes the entry's size in bytes
   * @param created when it was stored
   * @param lastAccess when it was last read
   * @param duration the computation's duration, or null
   * @param path the entry's folder in the store
   */
  public CacheEntry {
    Objects.requireNonNull(function, "function");
    Objects.requireNonNull(functionFolder, "functionFolder");
    Objects.requireNonNull(key, "key");
    arguments = arguments == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(arguments));
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(lastAccess, "lastAccess");
    Objects.requireNonNull(path, "path");
  }
}
