package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit on a local entry read before is served from the bytes held with the output file's stamp
 * ({@link OutputCache}): never once the entry is deleted, replaced by another writer, or rewritten
 * in place, and still recording its access for least-recently-used order. The settling time is
 * shortened here so that a test waits 50 ms for an entry to be held, not two seconds.
 */
class HeldOutputBytesTest {
  static final AtomicInteger CALLS = new AtomicInteger();
  /** What {@link #tagged} puts after its argument: another writer's value is another tag. */
  static volatile double tag = 1;

  @TempDir Path dir;
  private Path cache;
  private Duration settleBefore;

  /** Same size of output for every tag, so that a replacement differs in content only. */
  public static double[] tagged(int x) {
    CALLS.incrementAndGet();
    return new double[] {x, tag};
  }

  @BeforeEach
  void shortSettle() {
    cache = dir.resolve("cache");
    settleBefore = OutputCache.settle;
    OutputCache.settle = Duration.ofMillis(50);
    CALLS.set(0);
    tag = 1;
  }

  @AfterEach
  void restoreSettle() {
    OutputCache.settle = settleBefore;
  }

  @Test
  void aSettledEntryIsHeldAfterItsFirstHitAndServedFromThen() throws Exception {
    LocalStore store = new LocalStore(cache);
    MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);

    assertThat(f.apply(7)).containsExactly(7, 1);
    assertThat(OutputCache.holds(store, output)).isTrue();
    double[] again = f.apply(7);
    assertThat(again).containsExactly(7, 1);
    again[1] = 99; // the caller's own copy: what it changes is not what the next hit gets
    assertThat(f.apply(7)).containsExactly(7, 1);
    assertThat(CALLS).hasValue(1);
  }

  @Test
  void anEntryReplacedByAnotherWriterBetweenTwoHitsGivesTheNewValue() throws Exception {
    LocalStore store = new LocalStore(cache);
    MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);
    assertThat(f.apply(7)).containsExactly(7, 1);
    assertThat(OutputCache.holds(store, output)).isTrue();

    // another JVM clears the entry and stores its own value under the same key: same size, new file
    long sizeBefore = Files.size(cache.resolve(output));
    LocalStore.deleteTree(cache.resolve(output).getParent());
    tag = 2;
    MemoizedFn1<Integer, double[]> other = Memory.builder(new LocalStore(cache)).verbose(0).build()
        .cache(HeldOutputBytesTest::tagged);
    assertThat(other.apply(7)).containsExactly(7, 2);
    assertThat(Files.size(cache.resolve(output))).isEqualTo(sizeBefore);

    assertThat(f.apply(7)).containsExactly(7, 2);
    assertThat(CALLS).hasValue(2);
  }

  @Test
  void aDeletedEntryIsAMissNotTheHeldValue() throws Exception {
    LocalStore store = new LocalStore(cache);
    Memory memory = Memory.builder(store).verbose(0).build();
    MemoizedFn1<Integer, double[]> f = memory.cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);
    f.apply(7);
    assertThat(OutputCache.holds(store, output)).isTrue();

    LocalStore.deleteTree(cache.resolve(output).getParent()); // a sweep or a clear by another JVM
    tag = 3;
    assertThat(f.apply(7)).containsExactly(7, 3);
    assertThat(CALLS).hasValue(2);

    awaitSettled(store, output);
    f.apply(7);
    memory.clear(); // and by this one
    tag = 4;
    assertThat(f.apply(7)).containsExactly(7, 4);
    assertThat(CALLS).hasValue(3);
  }

  @Test
  void anOutputRewrittenInPlaceWithItsModificationTimePutBackIsReadAgain() throws Exception {
    LocalStore store = new LocalStore(cache);
    MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);
    Path file = cache.resolve(output);
    f.apply(7);
    assertThat(OutputCache.holds(store, output)).isTrue();

    // the same call's output with another value, made in another cache, written over this one's
    // in place (same inode, same size) and its modification time put back, as touch -r would
    tag = 5;
    Path elsewhere = dir.resolve("elsewhere");
    Memory.builder(elsewhere).verbose(0).build().cache(HeldOutputBytesTest::tagged).apply(7);
    byte[] replacement = Files.readAllBytes(elsewhere.resolve(output));
    assertThat(replacement).hasSize((int) Files.size(file));
    FileTime modified = Files.getLastModifiedTime(file);
    Object inode = Files.readAttributes(file, "unix:ino").get("ino");
    Files.write(file, replacement, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    Files.setLastModifiedTime(file, modified);
    assertThat(Files.readAttributes(file, "unix:ino").get("ino")).isEqualTo(inode);

    assertThat(f.apply(7)).containsExactly(7, 5); // the change time moved: the file was read again
    assertThat(CALLS).hasValue(2); // computed once here, once elsewhere
  }

  @Test
  void aDamagedOutputIsDetectedAfterItsBytesWereHeld() throws Exception {
    LocalStore store = new LocalStore(cache);
    MemoizedFn1<Integer, double[]> f = Memory.builder(store).verbose(0).build().cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);
    Path file = cache.resolve(output);
    f.apply(7);
    assertThat(OutputCache.holds(store, output)).isTrue();

    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(file, bytes, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    Runnable quiet = Warnings.addHook((source, message) -> { });
    try {
      assertThat(f.apply(7)).containsExactly(7, 1);
    } finally {
      quiet.run();
    }
    assertThat(CALLS).hasValue(2); // detected as damaged and recomputed, not served from the held bytes
  }

  @Test
  void aHitServedFromHeldBytesStillRecordsItsAccess() throws Exception {
    LocalStore store = new LocalStore(cache);
    Instant first = Instant.parse("2030-01-01T00:00:00Z");
    Memory early = Memory.builder(store).verbose(0).clock(Clock.fixed(first, ZoneOffset.UTC)).build();
    MemoizedFn1<Integer, double[]> f = early.cache(HeldOutputBytesTest::tagged);
    String output = storedAndSettled(store, f);
    f.apply(7);
    assertThat(OutputCache.holds(store, output)).isTrue();

    // access times are recorded at most once a minute per entry: a hit two minutes later records one
    Instant later = first.plus(Duration.ofMinutes(2));
    Memory.builder(store).verbose(0).clock(Clock.fixed(later, ZoneOffset.UTC)).build()
        .cache(HeldOutputBytesTest::tagged).apply(7);
    assertThat(Files.getLastModifiedTime(cache.resolve(output).getParent()).toInstant()).isEqualTo(later);
    assertThat(CALLS).hasValue(1);
  }

  /** The store path of the one entry's output. */
  /** Stores {@code f(7)} and waits until its output may be held: the output's path in the store. */
  private String storedAndSettled(LocalStore store, MemoizedFn1<Integer, double[]> f) throws Exception {
    f.apply(7);
    String output = outputPath();
    awaitSettled(store, output);
    return output;
  }

  private String outputPath() throws IOException {
    try (Stream<Path> s = Files.walk(cache)) {
      Path p = s.filter(x -> x.getFileName().toString().equals(Layout.OUTPUT_FILE)).findFirst().orElseThrow();
      return cache.relativize(p).toString().replace('\\', '/');
    }
  }

  /** Waits (a few tens of milliseconds) until the output's change time is old enough to be held. */
  private static void awaitSettled(LocalStore store, String output) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!OutputCache.settled(store.stamp(output))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the change time of " + output + " never settled");
      }
      Thread.sleep(10);
    }
  }
}
