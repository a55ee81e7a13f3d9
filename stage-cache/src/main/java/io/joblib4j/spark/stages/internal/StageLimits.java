package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.LimitKeeper;
import io.joblib4j.spi.upkeep.PrunePlanner;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The stage cache at one location as the shared {@link LimitKeeper} sees it, the same keeper that
 * keeps a {@code Memory}'s limits: its entries from the {@link EntryCatalog}, the entry just
 * published pinned, its book and prune lock under {@code .joblib4j/} beside Memory's. Two things
 * differ from Memory, both for the stage cache's size of entry (whole Parquet outputs, few of them):
 * a prune goes down to the limits themselves, not below; and the keeper's pace follows the cache's
 * clock, so that the limits a user set apply on the clock the entries' access times are read on.
 */
public final class StageLimits implements LimitKeeper.Cache<EntryCatalog.Listed> {
  static final String BOOK = ".joblib4j/stage-usage.json";
  static final String LOCK = ".joblib4j/locks/stage-prune";
  /** How old a listing may get before a new entry lists the location again. */
  static final Duration RELIST_AFTER = Duration.ofMinutes(1);

  private final EntryCatalog catalog;
  private final StageSettings settings;
  private final Set<String> pinned;

  private StageLimits(EntryCatalog catalog, StageSettings settings, Set<String> pinned) {
    this.catalog = catalog;
    this.settings = settings;
    this.pinned = pinned;
  }

  /** After {@code published} was published by this JVM: lists and prunes the location when due. Never throws. */
  static void published(EntryCatalog catalog, StageSettings settings, EntryRecord published) {
    keeper(catalog).stored(new StageLimits(catalog, settings, Set.of(published.stage() + "/" + published.key())),
        settings.limits(), published.bytes());
  }

  /** After a prune or clear by hand: the next new entry lists again. */
  static void forget(EntryCatalog catalog) {
    LimitKeeper.forget(key(catalog));
  }

  static LimitKeeper keeper(EntryCatalog catalog) {
    return LimitKeeper.of(key(catalog));
  }

  /** Apart from the keeper of a Memory at the same location: the two caches have limits of their own. */
  private static String key(EntryCatalog catalog) {
    return catalog.store().location() + " (stages)";
  }

  @Override
  public Store store() {
    return catalog.store();
  }

  @Override
  public String book() {
    return BOOK;
  }

  @Override
  public String lock() {
    return LOCK;
  }

  @Override
  public List<PrunePlanner.Candidate<EntryCatalog.Listed>> list() throws IOException {
    return catalog.candidates(pinned);
  }

  @Override
  public void delete(EntryCatalog.Listed entry) throws IOException {
    catalog.delete(entry);
  }

  @Override
  public Clock clock() {
    return settings.clock();
  }

  @Override
  public long nanoTime() {
    return settings.clock().millis() * 1_000_000;
  }

  @Override
  public Duration relistAfter() {
    return RELIST_AFTER;
  }

  @Override
  public int lowWaterPercent() {
    return 100;
  }
}
