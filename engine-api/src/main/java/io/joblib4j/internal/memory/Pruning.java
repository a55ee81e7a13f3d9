package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.CacheLimits;
import io.joblib4j.PruneReport;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.PrunePlanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Memory's side of {@link PrunePlanner}: its entries as the planner's candidates, the entries this
 * JVM is reading pinned, and the plan carried out (or, for a dry run, only reported).
 */
final class Pruning {
  private Pruning() {}

  /** Memory's entries as the planner's candidates, {@code spared} ones pinned. */
  static List<PrunePlanner.Candidate<CacheEntry>> candidates(List<CacheEntry> all, Predicate<CacheEntry> spared) {
    List<PrunePlanner.Candidate<CacheEntry>> out = new ArrayList<>(all.size());
    for (CacheEntry e : all) {
      out.add(new PrunePlanner.Candidate<>(e, e.path(), e.sizeBytes(), e.lastAccess(), spared.test(e)));
    }
    return out;
  }

  /** {@code Memory.prune} and {@code Memory.reduceSize}: applies {@code limits} once, or with {@code dryRun} only says what would go. */
  static PruneReport prune(CacheSettings settings, CacheLimits limits, boolean dryRun) throws IOException {
    Store store = settings.store();
    List<CacheEntry> all = Catalog.entries(store, "", false);
    List<CacheEntry> doomed = PrunePlanner.plan(candidates(all, e -> OpenReads.reading(settings.location(), e.path())),
        limits, settings.clock().instant());
    long freed = 0;
    for (CacheEntry e : doomed) {
      if (!dryRun) {
        store.delete(e.path());
      }
      freed += e.sizeBytes();
    }
    long total = all.stream().mapToLong(CacheEntry::sizeBytes).sum();
    if (!dryRun) {
      MemoryLimits.forget(settings.location());
    }
    return new PruneReport(dryRun, doomed, freed, all.size() - doomed.size(), total - freed);
  }
}
