package io.joblib4j.internal.memory;

import io.joblib4j.CacheLimits;
import io.joblib4j.PruneReport;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.Sweep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * {@code Memory.reduceSize} (joblib's {@code enforce_store_limits}) and {@code Memory.prune}: the
 * abandoned temporaries swept, then the least recently accessed entries deleted until the cache is
 * within every limit given, as {@link Pruning} plans it. An entry's access time is its folder's
 * modification time, which every hit refreshes.
 */
public final class Eviction {
  private Eviction() {}

  public static int reduce(CacheSettings settings, Long bytesLimit, Integer itemsLimit, Duration ageLimit) {
    if (settings.location() == null || bytesLimit == null && itemsLimit == null && ageLimit == null) {
      return 0;
    }
    Store store = settings.store();
    try {
      Sweep.temporaries(store);
      CacheLimits limits = new CacheLimits(bytesLimit, itemsLimit == null ? null : itemsLimit.longValue(), ageLimit);
      return Pruning.prune(settings, limits, false).removed().size();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reduce the cache at " + store.location(), e);
    }
  }

  /** {@code Memory.prune}. */
  public static PruneReport prune(CacheSettings settings, CacheLimits limits, boolean dryRun) throws IOException {
    return Pruning.prune(settings, limits, dryRun);
  }
}
