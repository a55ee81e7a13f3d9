package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code Memory.reduceSize}: deletes the least recently accessed entries until the cache is within
 * every limit given (joblib's {@code enforce_store_limits}). An entry's access time is its folder's
 * modification time, which every hit refreshes.
 */
public final class Eviction {
  private static final Duration SWEEP_AGE = Duration.ofHours(1);

  private Eviction() {}

  /** An entry: its folder, total size and last access. */
  record Item(String path, long size, Instant lastAccess) {}

  public static int reduce(CacheSettings settings, Long bytesLimit, Integer itemsLimit, Duration ageLimit) {
    if (settings.location() == null || bytesLimit == null && itemsLimit == null && ageLimit == null) {
      return 0;
    }
    Store store = settings.store();
    try {
      store.sweep(SWEEP_AGE);
      List<Item> items = items(store);
      List<Item> doomed = toDelete(items, bytesLimit, itemsLimit,
          ageLimit == null ? null : settings.clock().instant().minus(ageLimit));
      for (Item i : doomed) {
        store.delete(i.path());
      }
      LimitKeeper.forget(settings.location());
      return doomed.size();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reduce the cache at " + store.location(), e);
    }
  }

  /** {@code Memory.prune}. */
  public static io.joblib4j.PruneReport prune(CacheSettings settings, io.joblib4j.CacheLimits limits, boolean dryRun)
      throws IOException {
    return Pruning.prune(settings, limits, dryRun);
  }

  static List<Item> items(Store store) throws IOException {
    Map<String, long[]> sizes = new HashMap<>();
    Map<String, Instant> access = new HashMap<>();
    for (StoreFile f : store.list("")) {
      if (f.directory() && Layout.isEntry(f.path())) {
        access.put(f.path(), f.lastModified());
        sizes.computeIfAbsent(f.path(), k -> new long[1]);
      } else if (!f.directory()) {
        int slash = f.path().lastIndexOf('/');
        if (slash > 0 && Layout.isEntry(f.path().substring(0, slash))) {
          sizes.computeIfAbsent(f.path().substring(0, slash), k -> new long[1])[0] += f.size();
        }
      }
    }
    List<Item> items = new ArrayList<>();
    access.forEach((path, at) -> items.add(new Item(path, sizes.get(path)[0], at)));
    return items;
  }

  /** joblib's {@code _get_items_to_delete}: oldest first, until all limits hold. */
  static List<Item> toDelete(List<Item> items, Long bytesLimit, Integer itemsLimit, Instant oldestAllowed) {
    List<Item> sorted = new ArrayList<>(items);
    sorted.sort(Comparator.comparing(Item::lastAccess).thenComparing(Item::path));
    long total = sorted.stream().mapToLong(Item::size).sum();
    int count = sorted.size();
    List<Item> doomed = new ArrayList<>();
    for (Item i : sorted) {
      boolean tooBig = bytesLimit != null && total > bytesLimit;
      boolean tooMany = itemsLimit != null && count > itemsLimit;
      boolean tooOld = oldestAllowed != null && i.lastAccess().isBefore(oldestAllowed);
      if (!tooBig && !tooMany && !tooOld) {
        break;
      }
      doomed.add(i);
      total -= i.size();
      count--;
    }
    return doomed;
  }
}
