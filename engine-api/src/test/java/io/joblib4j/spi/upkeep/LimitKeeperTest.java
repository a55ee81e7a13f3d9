package io.joblib4j.spi.upkeep;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CacheLimits;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keeper's decisions, over a cache whose entries live in a map: when it lists, what it prunes, what it keeps. */
class LimitKeeperTest {
  @TempDir Path dir;

  /** Entries by name, oldest access first; the store only holds the book and the lock. */
  private class MapCache implements LimitKeeper.Cache<String> {
    final Map<String, Long> entries = new LinkedHashMap<>();
    final AtomicInteger listed = new AtomicInteger();
    final Store store = Stores.open(dir.toString(), Map.of());
    String pinned = "";
    int lowWater = 90;

    @Override
    public Store store() {
      return store;
    }

    @Override
    public String book() {
      return ".joblib4j/test-usage.json";
    }

    @Override
    public String lock() {
      return ".joblib4j/locks/test-prune";
    }

    @Override
    public List<PrunePlanner.Candidate<String>> list() {
      listed.incrementAndGet();
      List<PrunePlanner.Candidate<String>> out = new ArrayList<>();
      long second = 0;
      for (Map.Entry<String, Long> e : entries.entrySet()) {
        out.add(new PrunePlanner.Candidate<>(e.getKey(), e.getKey(), e.getValue(), Instant.ofEpochSecond(second++),
            e.getKey().equals(pinned)));
      }
      return out;
    }

    @Override
    public void delete(String entry) {
      entries.remove(entry);
    }

    @Override
    public int lowWaterPercent() {
      return lowWater;
    }

    void store(LimitKeeper keeper, CacheLimits limits, String name, long bytes) {
      entries.put(name, bytes);
      keeper.stored(this, limits, bytes);
    }
  }

  private static LimitKeeper fresh() {
    return LimitKeeper.of("test " + UUID.randomUUID());
  }

  @Test
  void theFirstStoreListsThenStoresUnderTheLimitListNothingAndPassingItPrunesToTheLowWaterMark() {
    MapCache cache = new MapCache();
    LimitKeeper keeper = fresh();
    CacheLimits tenItems = CacheLimits.none().items(10);
    for (int i = 0; i < 10; i++) {
      cache.store(keeper, tenItems, "e" + i, 1);
    }
    assertThat(cache.listed.get()).isEqualTo(1);
    cache.store(keeper, tenItems, "e10", 1);
    assertThat(cache.listed.get()).isEqualTo(2);
    assertThat(cache.entries.keySet()).hasSize(9).doesNotContain("e0", "e1").contains("e10");
    assertThat(keeper.estimatedItems()).isEqualTo(9);
  }

  @Test
  void aPinnedEntryIsNeverPrunedAndAPruneToTheLimitItselfKeepsTheLimit() {
    MapCache cache = new MapCache();
    cache.lowWater = 100;
    LimitKeeper keeper = fresh();
    CacheLimits twoItems = CacheLimits.none().items(2);
    cache.pinned = "a";
    for (String name : List.of("a", "b", "c", "d")) {
      cache.store(keeper, twoItems, name, 5);
    }
    assertThat(cache.entries.keySet()).containsExactly("a", "d");
  }

  @Test
  void noLimitMeansNoListingAndAnotherJvmsRecentBookSparesTheFirstListing() throws IOException {
    MapCache cache = new MapCache();
    fresh().stored(cache, CacheLimits.none(), 100);
    assertThat(cache.listed.get()).isZero();

    CacheLimits limit = CacheLimits.none().bytes(1_000);
    cache.store(fresh(), limit, "x", 10); // lists, and books 10 bytes
    assertThat(cache.listed.get()).isEqualTo(1);
    LimitKeeper second = fresh(); // as a JVM started after that listing
    cache.store(second, limit, "y", 10);
    assertThat(cache.listed.get()).isEqualTo(1);
    assertThat(second.estimatedBytes()).isEqualTo(20);
  }

  @Test
  void aCacheThatCannotBeListedIsLeftAloneForAWhileAndTheStoreGoesOn() {
    MapCache failing = new MapCache() {
      @Override
      public List<PrunePlanner.Candidate<String>> list() {
        listed.incrementAndGet();
        throw new IllegalStateException("the store is down");
      }
    };
    LimitKeeper keeper = fresh();
    CacheLimits oneItem = CacheLimits.none().items(1);
    failing.store(keeper, oneItem, "a", 1);
    failing.store(keeper, oneItem, "b", 1);
    failing.store(keeper, oneItem, "c", 1);
    assertThat(failing.listed.get()).as("one try, then a pause, not a listing at every store").isEqualTo(1);
  }
}
