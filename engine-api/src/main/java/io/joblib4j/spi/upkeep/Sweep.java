package io.joblib4j.spi.upkeep;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The one sweep of what writers that died left: a store's temporaries (a result being written, an
 * entry being published) older than {@link #ABANDONED_AFTER}. {@code Memory} sweeps when it first
 * uses a location and before it reduces a cache, {@code verify} reports and repairs with it, the stage
 * cache sweeps with it beside its own data attempts, and the command line reports with it: every one
 * of them calls a temporary abandoned at the same age.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Sweep {
  /**
   * How old a temporary must be to be a dead writer's: a writer at work finishes a result in less
   * (one writes a temporary for as long as it writes the result, then publishes it at once).
   */
  public static final Duration ABANDONED_AFTER = Duration.ofHours(1);

  private Sweep() {}

  /**
   * The temporaries of writers that died, without removing them.
   *
   * @param store the cache's store
   * @return the abandoned temporaries
   * @throws IOException if the store cannot be listed
   */
  public static List<StoreFile> abandoned(Store store) throws IOException {
    return store.temporaries(ABANDONED_AFTER);
  }

  /**
   * Removes the temporaries of writers that died.
   *
   * @param store the cache's store
   * @return how many were removed
   * @throws IOException if the store cannot be listed or written
   */
  public static int temporaries(Store store) throws IOException {
    return store.sweep(ABANDONED_AFTER);
  }
}
