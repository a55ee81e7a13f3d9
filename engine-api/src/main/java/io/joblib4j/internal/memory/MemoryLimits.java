package io.joblib4j.internal.memory;

import io.joblib4j.CacheEntry;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.LimitKeeper;
import io.joblib4j.spi.upkeep.PrunePlanner;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A Memory with limits ({@code Memory.builder(...).bytesLimit("50G")}) as the shared {@link
 * LimitKeeper} sees it: its entries from the {@link Catalog}, the entries this JVM is reading pinned
 * ({@link OpenReads}), its book and prune lock under {@code .joblib4j/}. The keeper holds the promise
 * (its Javadoc states the bound); this class only says where Memory's things are.
 */
final class MemoryLimits implements LimitKeeper.Cache<CacheEntry> {
  static final String BOOK = ".joblib4j/usage.json";
  static final String LOCK = ".joblib4j/locks/prune";
  /** How old a listing may get before a store lists again; tests shorten it. */
  static volatile Duration refresh = Duration.ofSeconds(30);
  /**
   * Called with the location by a pruner after it listed and chose what to delete, before it deletes:
   * tests pause the pruner here, as a scheduler that gives it no CPU would.
   */
  static volatile Consumer<String> midPrune = location -> {};
  /** Called with the location by a storing thread about to wait for this JVM's pruner (tests count them). */
  static volatile Consumer<String> writerWaits = location -> {};

  private final CacheSettings settings;
  private final Store store;

  private MemoryLimits(CacheSettings settings, Store store) {
    this.settings = settings;
    this.store = store;
  }

  /** A store of {@code bytes} was published: the keeper lists and prunes when due (see {@link LimitKeeper#stored}). */
  static void stored(CacheSettings settings, Store store, long bytes) {
    keeper(settings.location()).stored(new MemoryLimits(settings, store), settings.limits(), bytes);
  }

  /** After a prune or clear by hand: the next store lists again. */
  static void forget(String location) {
    LimitKeeper.forget(location);
  }

  static LimitKeeper keeper(String location) {
    return LimitKeeper.of(location);
  }

  @Override
  public Store store() {
    return store;
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
  public List<PrunePlanner.Candidate<CacheEntry>> list() throws IOException {
    return Pruning.candidates(Catalog.entries(store, "", false), e -> OpenReads.reading(settings.location(), e.path()));
  }

  @Override
  public void delete(CacheEntry entry) throws IOException {
    store.delete(entry.path());
  }

  @Override
  public Clock clock() {
    return settings.clock();
  }

  @Override
  public Duration relistAfter() {
    return refresh;
  }

  @Override
  public void planned(List<CacheEntry> doomed) {
    midPrune.accept(settings.location());
  }

  @Override
  public void writerWaits() {
    writerWaits.accept(settings.location());
  }
}
