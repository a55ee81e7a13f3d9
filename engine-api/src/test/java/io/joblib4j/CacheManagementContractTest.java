package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.fn.Fn1;
import io.joblib4j.spi.Store;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Listing, statistics, explanations, pruning, verification and limits over any {@link Store}: a
 * store's test extends this class and says how to open an empty store (and how a dead writer's
 * temporary looks in it). Runs unchanged against local disk and HDFS.
 */
@Timeout(120)
public abstract class CacheManagementContractTest {
  private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  protected Store store;
  protected Memory memory;

  /** A new, empty store for one test. */
  protected abstract Store newEmptyStore() throws Exception;

  /**
   * Leaves in {@code store} what a writer that died an hour ago leaves (a temporary older than an
   * hour), as the store's {@link Store#temporaries} reports it.
   */
  protected abstract void plantAbandonedTemporary(Store store) throws Exception;

  @BeforeEach
  void openMemory() throws Exception {
    CALLS.clear();
    store = newEmptyStore();
    memory = Memory.builder(store).verbose(0).build();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static int calls(String name) {
    AtomicInteger n = CALLS.get(name);
    return n == null ? 0 : n.get();
  }

  public static String greet(String name, int times) {
    CALLS.computeIfAbsent("greet", k -> new AtomicInteger()).incrementAndGet();
    return ("hello " + name + " ").repeat(times).trim();
  }

  public static long[] ramp(int n) {
    CALLS.computeIfAbsent("ramp", k -> new AtomicInteger()).incrementAndGet();
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = i;
    }
    return out;
  }

  @Test
  void listsEveryEntryWithItsSizeTimesAndTotalsPerFunction() {
    var g = memory.cache(CacheManagementContractTest::greet);
    var r = memory.cache(CacheManagementContractTest::ramp);
    g.apply("a", 1);
    g.apply("b", 2);
    r.apply(1000);
    r.apply(2000);
    r.apply(3000);

    CacheListing all = memory.entries();
    assertThat(all.size()).isEqualTo(5);
    assertThat(all.functions()).extracting(CacheListing.FunctionTotal::entries).containsExactly(3L, 2L);
    assertThat(all.functions().get(0).function()).isEqualTo("CacheManagementContractTest.ramp");
    assertThat(all.functions().get(0).bytes()).isGreaterThan(6000 * 8); // the three arrays' data at least
    assertThat(all.totalBytes()).isEqualTo(all.stream().mapToLong(CacheEntry::sizeBytes).sum());
    for (CacheEntry e : all) {
      assertThat(e.path()).isEqualTo(e.functionFolder() + "/" + e.key());
      assertThat(e.key()).hasSize(32);
      assertThat(e.sizeBytes()).isPositive();
      assertThat(e.lastAccess()).isAfterOrEqualTo(e.created());
      assertThat(e.arguments()).isEmpty(); // a plain listing reads no metadata
    }

    CacheListing greets = g.entries();
    assertThat(greets.size()).isEqualTo(2);
    assertThat(greets).allSatisfy(e -> {
      assertThat(e.function()).isEqualTo("CacheManagementContractTest.greet");
      assertThat(e.duration()).isNotNull();
      assertThat(e.codeVersion()).hasSize(32);
      assertThat(e.arguments()).hasSize(2);
    });
    assertThat(greets.stream().flatMap(e -> e.arguments().values().stream())).containsExactlyInAnyOrder("a", "1", "b", "2");
    assertThat(memory.entries(true).stream().filter(e -> e.function().endsWith("ramp"))
        .flatMap(e -> e.arguments().values().stream()))
        .containsExactlyInAnyOrder("1000", "2000", "3000");
  }

  @Test
  void statsCountHitsMissesStoresAndWhyEachMissMissed() throws Exception {
    var g = memory.cache(CacheManagementContractTest::greet);
    g.apply("a", 1);                       // miss: no entry
    g.apply("a", 1);                       // hit
    g.expiresAfter(Duration.ZERO).apply("a", 1); // there, but expired: recomputed and stored again
    CacheEntry e = g.entries().entries().get(0);
    store.replace(e.path() + "/output.jl4j", "not a container".getBytes(StandardCharsets.UTF_8));
    g.apply("a", 1);                       // damaged: recomputed

    CacheStats s = memory.stats();
    assertThat(s.hits()).isEqualTo(1);
    assertThat(s.misses()).isEqualTo(3);
    assertThat(s.misses(MissReason.NO_ENTRY)).isEqualTo(1);
    assertThat(s.misses(MissReason.EXPIRED)).isEqualTo(1);
    assertThat(s.misses(MissReason.DAMAGED)).isEqualTo(1);
    assertThat(s.recomputesAfterDamage()).isEqualTo(1);
    assertThat(s.stores()).isEqualTo(3);
    assertThat(calls("greet")).isEqualTo(3);
    memory.resetStats();
    assertThat(memory.stats().hits()).isZero();
  }

  @Test
  void explainSaysAStoredCallHitsAndNamesTheArgumentThatDiffers() {
    var g = memory.cache(CacheManagementContractTest::greet);
    assertThat(g.explain("a", 1).closest()).isEmpty(); // nothing stored yet
    g.apply("a", 1);
    g.apply("zzz", 7);
    assertThat(g.explain("a", 1).cached()).isTrue();

    MissExplanation why = g.explain("a", 2);
    assertThat(why.cached()).isFalse();
    assertThat(why.closest()).hasValueSatisfying(c -> assertThat(c.arguments()).containsValue("a"));
    assertThat(why.differences()).singleElement().satisfies(d -> {
      assertThat(d.component()).isEqualTo(MissExplanation.Component.ARGUMENT);
      assertThat(d.position()).isEqualTo(1);
      assertThat(d.stored()).isEqualTo("1");
      assertThat(d.current()).isEqualTo("2");
    });
    assertThat(why.toString()).contains("argument 1").contains("stored 1, now 2");
    assertThat(calls("greet")).isEqualTo(2); // explaining computes nothing
  }

  @Test
  void explainNamesACapturedValueThatDiffers() {
    Fn1<Integer, Integer> first = plus(1);
    memory.cache(first).apply(10);
    MissExplanation why = memory.cache(plus(2)).explain(10);
    assertThat(why.cached()).isFalse();
    assertThat(why.differences()).extracting(MissExplanation.Difference::component)
        .containsExactly(MissExplanation.Component.CAPTURED_VALUE);
    assertThat(memory.cache(plus(1)).explain(10).cached()).isTrue();
  }

  private static Fn1<Integer, Integer> plus(int k) {
    return x -> x + k;
  }

  @Test
  void explainNamesTheCodeVersionOfEntriesComputedByOtherCode() throws Exception {
    var g = memory.cache(CacheManagementContractTest::greet);
    g.apply("a", 1);
    CacheEntry e = g.entries().entries().get(0);
    // what an older version of greet left: the same call under another key, computed by other code
    String old = e.functionFolder() + "/" + "0123456789abcdef".repeat(2);
    String metadata = new String(store.open(e.path() + "/metadata.json").orElseThrow().readAllBytes(), StandardCharsets.UTF_8)
        .replace(e.codeVersion(), "00000000000000000000000000000000").replace(e.key(), "0123456789abcdef".repeat(2));
    byte[] output = store.open(e.path() + "/output.jl4j").orElseThrow().readAllBytes();
    store.publish(old, List.of(io.joblib4j.spi.EntryFile.of("output.jl4j", output),
        io.joblib4j.spi.EntryFile.of("metadata.json", metadata.getBytes(StandardCharsets.UTF_8))));
    store.delete(e.path());

    MissExplanation why = g.explain("a", 1);
    assertThat(why.cached()).isFalse();
    assertThat(why.differences()).singleElement().satisfies(d -> {
      assertThat(d.component()).isEqualTo(MissExplanation.Component.CODE_VERSION);
      assertThat(d.stored()).isEqualTo("00000000000000000000000000000000");
      assertThat(d.current()).isEqualTo(e.codeVersion());
    });
    assertThat(why.toString()).contains("code version");
  }

  @Test
  void pruneRemovesTheLeastRecentlyUsedFirstAndADryRunRemovesNothing() {
    // reads are recorded an hour ahead, so that they order entries whatever the file system's clock
    Memory later = Memory.builder(store).verbose(0).clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1))).build();
    var r = memory.cache(CacheManagementContractTest::ramp);
    r.apply(10);
    r.apply(20);
    r.apply(30);
    later.cache(CacheManagementContractTest::ramp).apply(10); // now the most recently used

    PruneReport dry = memory.prune(CacheLimits.none().items(1), true);
    assertThat(dry.dryRun()).isTrue();
    assertThat(dry.removed()).hasSize(2);
    assertThat(dry.remainingEntries()).isEqualTo(1);
    assertThat(memory.entries().size()).isEqualTo(3);

    PruneReport real = memory.prune(CacheLimits.none().items(1), false);
    assertThat(real.removed()).extracting(CacheEntry::key).containsExactlyElementsOf(dry.removed().stream().map(CacheEntry::key).toList());
    assertThat(real.bytesRemoved()).isEqualTo(real.removed().stream().mapToLong(CacheEntry::sizeBytes).sum());
    assertThat(memory.entries().size()).isEqualTo(1);
    int before = calls("ramp");
    r.apply(10);
    assertThat(calls("ramp")).isEqualTo(before); // the one read last stayed
    r.apply(20);
    assertThat(calls("ramp")).isEqualTo(before + 1); // a pruned one is recomputed
  }

  @Test
  void pruneByAgeRemovesEntriesUnusedForLonger() {
    var r = memory.cache(CacheManagementContractTest::ramp);
    r.apply(10);
    Memory later = Memory.builder(store).verbose(0).clock(Clock.offset(Clock.systemUTC(), Duration.ofDays(2))).build();
    assertThat(later.prune(CacheLimits.none().age(Duration.ofDays(1)), false).removed()).hasSize(1);
    assertThat(memory.entries().size()).isZero();
  }

  @Test
  void verifyFindsADamagedEntryAForeignFileAndAnAbandonedTemporaryAndRepairs() throws Exception {
    var r = memory.cache(CacheManagementContractTest::ramp);
    r.apply(10);
    r.apply(20);
    CacheEntry victim = memory.entries().entries().get(0);
    byte[] bytes = store.open(victim.path() + "/output.jl4j").orElseThrow().readAllBytes();
    bytes[bytes.length / 2] ^= 0x40; // one bit flipped: same size, other checksum
    store.replace(victim.path() + "/output.jl4j", bytes);
    store.replace(victim.functionFolder() + "/notes.txt", "mine".getBytes(StandardCharsets.UTF_8));
    plantAbandonedTemporary(store);
    assertThat(memory.verify(false).ok()).isFalse();

    VerifyReport found = memory.verify(false);
    assertThat(found.entriesChecked()).isEqualTo(2);
    assertThat(found.problems(VerifyReport.Kind.DAMAGED_ENTRY)).singleElement()
        .satisfies(p -> assertThat(p.path()).isEqualTo(victim.path()))
        .satisfies(p -> assertThat(p.detail()).contains("CRC32C"));
    assertThat(found.problems(VerifyReport.Kind.FOREIGN_FILE)).extracting(VerifyReport.Problem::path)
        .containsExactly(victim.functionFolder() + "/notes.txt");
    assertThat(found.problems(VerifyReport.Kind.ABANDONED_TEMPORARY)).hasSize(1);
    assertThat(memory.entries().size()).isEqualTo(2); // reporting deletes nothing

    VerifyReport repaired = memory.verify(true);
    assertThat(repaired.repaired()).isTrue();
    assertThat(repaired.problems()).hasSize(3);
    // the damaged entry and the temporary went; the user's file is reported again, never deleted
    assertThat(memory.verify(false).problems()).extracting(VerifyReport.Problem::kind)
        .containsExactly(VerifyReport.Kind.FOREIGN_FILE);
    assertThat(store.open(victim.functionFolder() + "/notes.txt").orElseThrow().readAllBytes())
        .isEqualTo("mine".getBytes(StandardCharsets.UTF_8));
    assertThat(memory.entries().size()).isEqualTo(1);
  }

  @Test
  void foldersNamedLikeMemorysButWithoutItsRecordsAreNeverListedOrDeleted() throws Exception {
    var g = memory.cache(CacheManagementContractTest::greet);
    g.apply("a", 1);
    g.apply("b", 1);
    CacheEntry kept = g.entries().entries().get(0);
    // a user's export folder whose name has the shape of a function's folder, with no function.json
    Map<String, byte[]> users = new java.util.LinkedHashMap<>();
    users.put("exports-20240101abcd/report.csv", "mine".getBytes(StandardCharsets.UTF_8));
    users.put("exports-20240101abcd/0123456789abcdef0123456789abcdef/x.csv", "x".getBytes(StandardCharsets.UTF_8));
    // inside a real function folder, a folder with a key's shape but no metadata.json
    users.put(kept.functionFolder() + "/fedcba9876543210fedcba9876543210/notes.txt", "n".getBytes(StandardCharsets.UTF_8));
    for (Map.Entry<String, byte[]> u : users.entrySet()) {
      store.replace(u.getKey(), u.getValue());
    }

    assertThat(memory.entries().stream().map(CacheEntry::path)).doesNotContain(
        "exports-20240101abcd/0123456789abcdef0123456789abcdef", kept.functionFolder() + "/fedcba9876543210fedcba9876543210");
    assertThat(memory.entries().functions()).extracting(CacheListing.FunctionTotal::folder)
        .containsExactly(kept.functionFolder());
    VerifyReport report = memory.verify(true);
    assertThat(report.entriesChecked()).isEqualTo(2);
    assertThat(report.problems(VerifyReport.Kind.FOREIGN_FILE)).extracting(VerifyReport.Problem::path)
        .containsExactly(kept.functionFolder() + "/fedcba9876543210fedcba9876543210");
    memory.prune(CacheLimits.none().age(Duration.ZERO), false);
    memory.reduceSize(0L, 0, Duration.ZERO);
    assertThatThrownBy(() -> memory.remove("exports-20240101abcd")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> memory.remove(kept.functionFolder() + "/fedcba9876543210fedcba9876543210"))
        .isInstanceOf(IllegalArgumentException.class);
    memory.clear();

    assertThat(memory.entries().size()).isZero();
    for (Map.Entry<String, byte[]> u : users.entrySet()) {
      assertThat(store.open(u.getKey())).as(u.getKey()).isPresent();
      assertThat(store.open(u.getKey()).orElseThrow().readAllBytes()).as(u.getKey()).isEqualTo(u.getValue());
    }
  }

  @Test
  void removeDeletesAnEntryOrAFunctionsEntriesAndRefusesAnyOtherPath() throws Exception {
    var g = memory.cache(CacheManagementContractTest::greet);
    var r = memory.cache(CacheManagementContractTest::ramp);
    g.apply("a", 1);
    g.apply("b", 1);
    r.apply(5);
    CacheEntry one = g.entries().entries().get(0);
    assertThat(memory.remove(one.path())).isTrue();
    assertThat(memory.remove(one.path())).isFalse();
    assertThat(memory.entries().size()).isEqualTo(2);
    store.replace("mine.txt", "x".getBytes(StandardCharsets.UTF_8));
    for (String bad : new String[] {"mine.txt", ".joblib4j", one.functionFolder() + "/function.json", ""}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> memory.remove(bad)).as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(memory.remove(r.entries().entries().get(0).functionFolder())).isTrue();
    assertThat(memory.entries().stream().map(CacheEntry::function)).containsExactly("CacheManagementContractTest.greet");
    assertThat(store.exists("mine.txt")).isTrue();
    r.apply(5);
    assertThat(calls("ramp")).isEqualTo(2); // recomputed after its removal
  }

  @Test
  void aBytesLimitKeepsTheCacheWithinItAfterStores() {
    Memory limited = Memory.builder(store).verbose(0).bytesLimit(20_000).build();
    var r = limited.cache(CacheManagementContractTest::ramp);
    for (int i = 0; i < 12; i++) {
      r.apply(500 + i); // about 4 KB each
    }
    CacheListing left = limited.entries();
    assertThat(left.totalBytes()).isLessThanOrEqualTo(20_000);
    assertThat(left.size()).isBetween(3, 5);
    assertThat(r.checkCallInCache(511)).isTrue(); // the newest stayed
    assertThat(r.checkCallInCache(500)).isFalse(); // the oldest went
  }

  @Test
  void anItemsLimitKeepsAtMostThatManyEntries() {
    Memory limited = Memory.builder(store).verbose(0).itemsLimit(5).build();
    var r = limited.cache(CacheManagementContractTest::ramp);
    for (int i = 0; i < 12; i++) {
      r.apply(i);
    }
    assertThat(limited.entries().size()).isBetween(4, 5);
    assertThat(limited.limits().items()).isEqualTo(5);
  }

  @Test
  void aReadOnlyMemoryListsExplainsVerifiesAndLoadsWithoutChangingTheStore() throws Exception {
    var g = memory.cache(CacheManagementContractTest::greet);
    g.apply("a", 1);
    g.apply("b", 2);
    plantAbandonedTemporary(store);
    store.delete(".gitignore"); // a Memory that prepares the store writes it back
    Map<String, String> before = snapshot(store);

    Memory reader = Memory.builder(store).readOnly().verbose(0).build();
    assertThat(reader.entries().size()).isEqualTo(2);
    assertThat(reader.entries(true).stream().map(e -> e.arguments().get("name"))).containsExactlyInAnyOrder("a", "b");
    VerifyReport report = reader.verify(false);
    assertThat(report.entriesChecked()).isEqualTo(2);
    assertThat(report.problems(VerifyReport.Kind.ABANDONED_TEMPORARY)).hasSize(1);
    assertThat(reader.prune(CacheLimits.none().items(0), true).removed()).hasSize(2);
    var rg = reader.cache(CacheManagementContractTest::greet);
    assertThat(rg.apply("a", 1)).isEqualTo("hello a");
    assertThat(calls("greet")).isEqualTo(2); // a hit, loaded
    assertThat(rg.apply("c", 1)).isEqualTo("hello c");
    assertThat(calls("greet")).isEqualTo(3); // a miss, computed and not stored
    assertThat(rg.explain("c", 1).cached()).isFalse();
    assertThat(rg.entries().size()).isEqualTo(2);
    assertThat(snapshot(store)).isEqualTo(before);

    for (org.assertj.core.api.ThrowableAssert.ThrowingCallable change : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
        reader::clear, () -> reader.reduceSize("1", null, null), () -> reader.prune(CacheLimits.none().items(0), false),
        () -> reader.remove(reader.entries().entries().get(0).path()), () -> reader.verify(true), rg::clear)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(change).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("read-only");
    }
    assertThat(snapshot(store)).isEqualTo(before);
  }

  /** Everything the store holds, its temporaries and the .gitignore included: path, size and time. */
  private static Map<String, String> snapshot(Store store) throws Exception {
    Map<String, String> out = new java.util.TreeMap<>();
    for (var f : store.list("")) {
      out.put(f.path(), f.directory() + " " + f.size() + " " + f.lastModified());
    }
    for (var t : store.temporaries(Duration.ZERO)) {
      out.put(t.path(), "temporary " + t.size() + " " + t.lastModified());
    }
    out.put(".gitignore", String.valueOf(store.exists(".gitignore")));
    return out;
  }
}
