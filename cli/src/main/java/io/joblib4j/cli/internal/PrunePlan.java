package io.joblib4j.cli.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What a prune deletes, computed from a listing without deleting anything ({@code --dry-run}): the
 * entries not read for the age limit, then the least recently read until the rest fit the item
 * and size limits — the order {@code Memory.reduceSize} and {@code StageCatalog.prune} follow.
 */
public final class PrunePlan {
  private PrunePlan() {}

  public static <T> List<T> select(List<T> entries, ToLongFunction<T> bytes, Function<T, Instant> lastAccess,
      long maxBytes, int maxItems, Duration maxAge, Instant now) {
    List<T> byAccess = new ArrayList<>(entries);
    byAccess.sort(Comparator.comparing(lastAccess, Comparator.nullsFirst(Comparator.naturalOrder())));
    List<T> delete = new ArrayList<>();
    List<T> keep = new ArrayList<>();
    for (T e : byAccess) {
      Instant t = lastAccess.apply(e);
      if (maxAge != null && (t == null || t.isBefore(now.minus(maxAge)))) {
        delete.add(e);
      } else {
        keep.add(e);
      }
    }
    long total = keep.stream().mapToLong(bytes).sum();
    int i = 0;
    while (i < keep.size() && (maxItems > 0 && keep.size() - i > maxItems || maxBytes > 0 && total > maxBytes)) {
      T e = keep.get(i++);
      delete.add(e);
      total -= bytes.applyAsLong(e);
    }
    return delete;
  }
}
