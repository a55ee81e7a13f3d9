package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import io.joblib4j.spark.stages.Pipelines;
import io.joblib4j.spark.stages.TestClock;
import io.joblib4j.spark.stages.TestSpark;
import io.joblib4j.spi.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a miss costs besides its own write, counted in store calls, and that the sweep and the
 * limits still do their work when due.
 */
class MaintenanceTest {
  private static final StageSpec CLEAN = StageSpec.of((Fn1<Dataset<Row>, Dataset<Row>>) Pipelines::clean, 1);
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private String input;
  private TestClock clock;

  @BeforeEach
  void setUp() {
    input = dir.resolve("raw").toString();
    spark.range(0, 100, 1, 2).write().parquet(input);
    clock = new TestClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  private CountingStore store(String name) {
    return new CountingStore(Stores.open(dir.resolve(name).toString(), Map.of()));
  }

  private StageRunner runner(CountingStore store, int maxEntries, Duration maxAge, Duration sweepAge) {
    return new StageRunner(spark, store, new StageSettings("parquet", null, 0, maxEntries, maxAge, sweepAge, clock));
  }

  private Dataset<Row> below(long n) {
    return spark.read().parquet(input).filter(col("id").lt(n));
  }

  @Test
  void aMissListsNothingAndReadsNoOtherEntryWhenNoSweepOrPruneIsDue() {
    CountingStore store = store("cache");
    StageRunner runner = runner(store, 0, null, Duration.ofDays(1));
    for (long n = 10; n <= 50; n += 10) {
      runner.call(CLEAN, new Object[] {below(n)});
    }
    store.reset();
    assertThat(runner.call(CLEAN, new Object[] {below(60)}).count()).isEqualTo(30);
    // its own entry.json (absent), its publish: no listing of its data, no sweep reading the 5 other records
    assertThat(store.calls("open")).isEqualTo(1);
    assertThat(store.calls("publish")).isEqualTo(1);
    assertThat(store.calls("list")).isZero();
    assertThat(store.calls("children")).isZero();

    // and with limits set, none is listed either while the location is under them and a prune is not due
    CountingStore limited = store("limited");
    StageRunner bounded = runner(limited, 100, Duration.ofDays(30), Duration.ofDays(1));
    bounded.call(CLEAN, new Object[] {below(10)});
    limited.reset();
    bounded.call(CLEAN, new Object[] {below(20)});
    assertThat(limited.calls("children")).isZero();
    clock.advance(StageLimits.RELIST_AFTER);
    bounded.call(CLEAN, new Object[] {below(30)});
    assertThat(limited.calls("children")).isPositive(); // the interval passed: a full prune
  }

  @Test
  void aCountLimitHoldsAfterEveryNewEntryOfThisJvmWithTheClockStill() {
    CountingStore store = store("cache");
    StageRunner runner = runner(store, 2, null, Duration.ofDays(1));
    for (long n = 10; n <= 40; n += 10) {
      runner.call(CLEAN, new Object[] {below(n)});
      assertThat(listed(runner)).hasSize((int) Math.min(n / 10, 2));
    }
    assertThat(listed(runner)).contains(keyOf(runner, below(40))); // the newest is kept
  }

  @Test
  void entriesNotReadForMaxAgeArePrunedAndTheEntryJustPublishedNeverIs() {
    CountingStore store = store("cache");
    StageRunner runner = runner(store, 0, Duration.ofHours(1), Duration.ofDays(1));
    Dataset<Row> a = runner.call(CLEAN, new Object[] {below(10)}); // published at t0
    clock.advance(Duration.ofMinutes(50));
    runner.call(CLEAN, new Object[] {below(20)}); // b: published (the file system's time, about t0), never read
    runner.call(CLEAN, new Object[] {below(10)}); // a hit: a read at t0 + 50 min
    clock.advance(Duration.ofMinutes(50));
    Dataset<Row> c = runner.call(CLEAN, new Object[] {below(30)}); // t0 + 100 min: b was not read for over an hour
    assertThat(c.count()).isEqualTo(15);
    assertThat(listed(runner)).containsExactlyInAnyOrder(keyOf(runner, below(10)), keyOf(runner, below(30)));
    assertThat(a.count()).isEqualTo(5);
  }

  @Test
  void aNewEntrySweepsItsStagesAbandonedFoldersWhenDue() throws IOException {
    CountingStore store = store("cache");
    StageRunner runner = runner(store, 0, null, Duration.ZERO); // sweep age zero: due on every new entry
    runner.call(CLEAN, new Object[] {below(10)});
    StageKeys.Keyed k = runner.keyOf(CLEAN, new Object[] {below(10)});
    Path data = dir.resolve("cache").resolve(StageLayout.dataRoot(k.stage()));
    // what a writer that died leaves: a whole folder of a key that has no entry
    String otherKey = "0123456789abcdef0123456789abcdef";
    spark.range(0, 3).write().parquet(data.resolve(otherKey + ".00000000-0000-4000-8000-000000000000").toString());
    // refresh: the key's new data folder replaces the old one, which another application may still read
    clock.advance(Duration.ofMinutes(1)); // the test clock started behind the files' times
    runner.call(CLEAN.refreshing(), new Object[] {below(10)});
    assertThat(folders(data)).hasSize(1).allMatch(f -> f.startsWith(k.key() + "."));
    assertThat(runner.call(CLEAN, new Object[] {below(10)}).count()).isEqualTo(5);
  }

  private static List<String> listed(StageRunner runner) {
    try {
      return runner.catalog().list().stream().map(l -> l.record().key()).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String keyOf(StageRunner runner, Dataset<Row> arg) {
    return runner.keyOf(CLEAN, new Object[] {arg}).key();
  }

  private static List<String> folders(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
