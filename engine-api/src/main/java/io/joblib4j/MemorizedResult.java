package io.joblib4j;

import java.io.Serializable;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A reference to a cached result, returned by {@code memoized.callAndShelve(...)} without loading
 * the result: pass it around (it is serializable, so it can go to other JVMs that see the same
 * store) and {@link #get()} it where it is needed.
 *
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface MemorizedResult<R> extends Serializable {

  /**
   * Loads the result.
   *
   * @return the stored result
   * @throws MissingCacheEntryException if the entry was cleared or evicted meanwhile
   * @throws CorruptCacheEntryException if the stored entry is damaged
   */
  R get();

  /** Deletes the entry; {@link #get()} fails afterwards. */
  void clear();

  /**
   * The stored metadata, if the entry exists (empty when caching is disabled).
   *
   * @return the entry's metadata, if it is still there
   */
  Optional<CacheMetadata> metadata();

  /**
   * The function's short name.
   *
   * @return the function's name
   */
  String function();

  /**
   * The call key (empty when caching is disabled).
   *
   * @return the call key
   */
  String key();
}
