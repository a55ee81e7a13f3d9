package io.joblib4j.spi.upkeep;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CacheLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrunePlannerTest {
  private static final Instant NOW = Instant.parse("2026-01-31T00:00:00Z");

  private static PrunePlanner.Candidate<String> entry(String name, long bytes, long secondsAgo) {
    return new PrunePlanner.Candidate<>(name, name, bytes, NOW.minusSeconds(secondsAgo), false);
  }

  @Test
  void underASizeLimitDeletesTheLeastRecentlyUsedUntilTheRestFits() {
    // newest first A = 8, B = 5, C = 2 bytes, limit 10: joblib's reduce_size deletes C, then B
    List<PrunePlanner.Candidate<String>> es = List.of(entry("A", 8, 1), entry("B", 5, 2), entry("C", 2, 3));
    assertThat(PrunePlanner.plan(es, CacheLimits.none().bytes(10), NOW)).containsExactly("C", "B");
  }

  @Test
  void deletesTheOldThenTheLeastRecentlyUsedUntilEveryLimitHolds() {
    List<PrunePlanner.Candidate<String>> es = List.of(entry("old", 1, Duration.ofDays(40).toSeconds()),
        entry("a", 10, 300), entry("b", 10, 200), entry("c", 10, 100));
    assertThat(PrunePlanner.plan(es, CacheLimits.none().age(Duration.ofDays(30)), NOW)).containsExactly("old");
    assertThat(PrunePlanner.plan(es, CacheLimits.none().bytes(15), NOW)).containsExactly("old", "a", "b");
    assertThat(PrunePlanner.plan(es, CacheLimits.none().items(2), NOW)).containsExactly("old", "a");
    assertThat(PrunePlanner.plan(es, CacheLimits.none(), NOW)).isEmpty();
  }

  @Test
  void anAgeLimitOfZeroDeletesEveryEntryNotUsedAtThisInstant() {
    List<PrunePlanner.Candidate<String>> es = List.of(entry("a", 1, 1), entry("b", 1, 0), entry("c", 1, 3600));
    assertThat(PrunePlanner.plan(es, CacheLimits.none().age(Duration.ZERO), NOW)).containsExactly("c", "a");
  }

  @Test
  void neverChoosesAPinnedEntryAndCountsItAgainstTheLimits() {
    List<PrunePlanner.Candidate<String>> es = new ArrayList<>(List.of(entry("a", 5, 10), entry("b", 5, 5)));
    es.add(new PrunePlanner.Candidate<>("pinned", "pinned", 5, NOW.minusSeconds(100), true));
    assertThat(PrunePlanner.plan(es, CacheLimits.none().items(1), NOW)).containsExactly("a", "b");
    assertThat(PrunePlanner.plan(es, CacheLimits.none().age(Duration.ZERO), NOW)).containsExactly("a", "b");
  }

  @Test
  void entriesUsedAtTheSameInstantGoInTheOrderOfTheirIds() {
    List<PrunePlanner.Candidate<String>> es = List.of(entry("z", 1, 7), entry("m", 1, 7), entry("a", 1, 7));
    assertThat(PrunePlanner.plan(es, CacheLimits.none().items(1), NOW)).containsExactly("a", "m");
  }
}
