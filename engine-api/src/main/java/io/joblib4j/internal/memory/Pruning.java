package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.CacheLimits;
import io.joblib4j.PruneReport;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which entries to delete so that a cache keeps its limits: least recently used first, until it
 * holds at most the bytes and entries allowed, and every entry unused for longer than the age limit.
 * Entries this JVM is reading are never chosen.
 */
final class Pruning {
  private Pruning() {}

  /**
   * The entries to delete from {@code all} so that at most {@code maxBytes} bytes and {@code maxItems}
   * entries remain (null: no such limit) and none was last used before {@code oldestAllowed}.
   */
  static List<CacheEntry> victims(List<CacheEntry> all, Long maxBytes, Long maxItems, Instant oldestAllowed,
      Predicate<CacheEntry> spared) {
    List<CacheEntry> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparing(CacheEntry::lastAccess).thenComparing(CacheEntry::path));
    long total = sorted.stream().mapToLong(CacheEntry::sizeBytes).sum();
    long count = sorted.size();
    List<CacheEntry> doomed = new ArrayList<>();
    for (CacheEntry e : sorted) {
      boolean tooBig = maxBytes != null && total > maxBytes;
      boolean tooMany = maxItems != null && count > maxItems;
      boolean tooOld = oldestAllowed != null && e.lastAccess().isBefore(oldestAllowed);
      if (!tooBig && !tooMany && !tooOld) {
        if (oldestAllowed == null) {
          break; // sorted by access: nothing later is too old either, and the sizes hold
        }
        continue;
      }
      if (spared.test(e)) {
        continue;
      }
      doomed.add(e);
      total -= e.sizeBytes();
      count--;
    }
    return doomed;
  }

  /** {@code Memory.prune}: applies {@code limits} once, or with {@code dryRun} only says what would go. */
  static PruneReport prune(CacheSettings settings, CacheLimits limits, boolean dryRun) throws IOException {
    Store store = settings.store();
    List<CacheEntry> all = Catalog.entries(store, "", false);
    Instant oldest = limits.age() == null ? null : settings.clock().instant().minus(limits.age());
    List<CacheEntry> doomed = victims(all, limits.bytes(), limits.items(), oldest,
        e -> OpenReads.reading(settings.location(), e.path()));
    long freed = 0;
    for (CacheEntry e : doomed) {
      if (!dryRun) {
        store.delete(e.path());
      }
      freed += e.sizeBytes();
    }
    long total = all.stream().mapToLong(CacheEntry::sizeBytes).sum();
    if (!dryRun) {
      LimitKeeper.forget(settings.location());
    }
    return new PruneReport(dryRun, doomed, freed, all.size() - doomed.size(), total - freed);
  }
}
