package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.CacheEntry;
import io.joblib4j.CacheLimits;
import io.joblib4j.spi.upkeep.LimitKeeper;
import io.joblib4j.Memory;
import io.joblib4j.MissExplanation;
import io.joblib4j.MissReason;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store-independent contract cannot reach: old entries, this JVM's code checks, the limit keeper. */
class CacheManagementTest {
  @TempDir Path dir;

  public static long[] ramp(int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  private Path fixture() throws IOException, URISyntaxException {
    Path from = Path.of(getClass().getResource("legacy-cache-v1").toURI());
    Path to = dir.resolve("legacy");
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  @Test
  void entriesWrittenBeforeKeyPartsWereRecordedStillLoadListVerifyAndExplain() throws Exception {
    Memory memory = Memory.builder(fixture()).verbose(0).build();
    var squares = memory.cache(LegacyEntries::squares);
    assertThat(squares.apply(4, "four")).containsExactly(0, 1, 4, 9);
    assertThat(memory.stats().hits()).isEqualTo(1);
    assertThat(memory.stats().stores()).isZero();

    assertThat(squares.entries()).hasSize(2).allSatisfy(e -> {
      assertThat(e.function()).isEqualTo("LegacyEntries.squares");
      assertThat(e.arguments()).containsKeys("n", "label");
    });
    assertThat(memory.verify(false).ok()).isTrue();

    MissExplanation why = squares.explain(4, "six");
    assertThat(why.closest()).hasValueSatisfying(c -> assertThat(c.arguments()).containsEntry("label", "four"));
    assertThat(why.differences()).singleElement().satisfies(d -> {
      assertThat(d.component()).isEqualTo(MissExplanation.Component.ARGUMENT);
      assertThat(d.position()).isEqualTo(1);
      assertThat(d.name()).isEqualTo("label");
      assertThat(d.stored()).isEqualTo("four");
      assertThat(d.current()).isEqualTo("six");
    });
  }

  @Test
  void aMissAfterTheFunctionsCodeChangedCountsAsCodeVersionChanged() throws Exception {
    Path cache = dir.resolve("cache");
    Memory memory = Memory.builder(cache).verbose(0).build();
    var r = memory.cache(CacheManagementTest::ramp);
    r.apply(1);
    String folder = r.entries().entries().get(0).functionFolder();
    Path functionJson = cache.resolve(folder).resolve("function.json");
    String json = Files.readString(functionJson);
    String version = r.entries().entries().get(0).codeVersion();
    Files.writeString(functionJson, json.replace(version, "ffffffffffffffffffffffffffffffff"), StandardCharsets.UTF_8);
    CachedFunction.forgetChecks(memory.location()); // as a new JVM would start: function.json not yet checked

    r.apply(2);
    assertThat(memory.stats().misses(MissReason.CODE_VERSION_CHANGED)).isEqualTo(1);
    r.apply(3); // function.json now records this code: a plain miss
    assertThat(memory.stats().misses(MissReason.NO_ENTRY)).isEqualTo(2);
  }

  @Test
  void explainWithNoEntryLeftSaysTheCodeVersionChangedWhenFunctionJsonSaysSo() throws Exception {
    Path cache = dir.resolve("cache");
    Memory memory = Memory.builder(cache).verbose(0).build();
    var r = memory.cache(CacheManagementTest::ramp);
    r.apply(1);
    CacheEntry e = r.entries().entries().get(0);
    Path functionJson = cache.resolve(e.functionFolder()).resolve("function.json");
    Files.writeString(functionJson, Files.readString(functionJson).replace(e.codeVersion(), "ffffffffffffffffffffffffffffffff"));
    LocalStore.deleteTree(cache.resolve(e.path()));

    MissExplanation why = r.explain(1);
    assertThat(why.closest()).isEmpty();
    assertThat(why.differences()).extracting(MissExplanation.Difference::component)
        .containsExactly(MissExplanation.Component.CODE_VERSION);
  }

  @Test
  void pruneNeverDeletesAnEntryThisJvmIsReading() {
    Memory memory = Memory.builder(dir.resolve("cache")).verbose(0).build();
    var r = memory.cache(CacheManagementTest::ramp);
    r.apply(1);
    r.apply(2);
    CacheEntry oldest = memory.entries().entries().get(0);
    OpenReads.begin(memory.location(), oldest.path());
    try {
      assertThat(memory.prune(CacheLimits.none().items(0), false).removed()).extracting(CacheEntry::path)
          .doesNotContain(oldest.path()).hasSize(1);
    } finally {
      OpenReads.end(memory.location(), oldest.path());
    }
    assertThat(memory.prune(CacheLimits.none().items(0), false).removed()).extracting(CacheEntry::path)
        .containsExactly(oldest.path());
  }

  @Test
  void storesUnderTheLimitDoNotListTheCacheAndPassingItPrunesBelowIt() {
    Memory memory = Memory.builder(dir.resolve("cache")).verbose(0).itemsLimit(20).build();
    var r = memory.cache(CacheManagementTest::ramp);
    r.apply(0);
    LimitKeeper keeper = MemoryLimits.keeper(memory.location());
    long listings = keeper.listings();
    assertThat(listings).isEqualTo(1); // the first store of this JVM lists once
    for (int i = 1; i < 20; i++) {
      r.apply(i);
    }
    assertThat(keeper.listings()).isEqualTo(listings); // 19 stores, no listing
    r.apply(20); // the 21st entry passes the limit
    assertThat(keeper.listings()).isEqualTo(listings + 1);
    assertThat(memory.entries().size()).isEqualTo(18); // down to 90 %, least recently used first
    assertThat(r.checkCallInCache(0)).isFalse();
    assertThat(r.checkCallInCache(20)).isTrue();
    assertThat(Files.exists(dir.resolve("cache").resolve(MemoryLimits.BOOK))).isTrue();
  }
}
