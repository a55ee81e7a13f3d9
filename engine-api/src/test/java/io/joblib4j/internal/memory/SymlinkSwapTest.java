package io.joblib4j.internal.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.internal.memory.LocalTree.Interleaving;
import io.joblib4j.internal.memory.LocalTree.Step;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreFile;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Symbolic links swapped in under a cache folder while it is in use are never followed: at each
 * step of a publish, a read, a listing, a delete and a sweep, a folder on the way is replaced by a
 * link to a folder outside the root, and nothing outside is created, read or deleted.
 */
class SymlinkSwapTest {
  @TempDir Path dir;
  @TempDir Path outside;
  private Path cache;
  private Map<String, String> outsideBefore;

  public static int twice(int x) {
    return 2 * x;
  }

  @BeforeEach
  void plantDecoys() throws IOException {
    cache = dir.resolve("cache");
    // what following a link would find: files named like an entry's, and a folder holding one
    Files.writeString(outside.resolve("output"), "outside");
    Files.writeString(outside.resolve("function.json"), "outside");
    Files.createDirectories(outside.resolve("k"));
    Files.writeString(outside.resolve("k/output"), "outside");
    outsideBefore = snapshot(outside);
  }

  @Test
  void aFunctionFolderSwappedForALinkAfterFirstUseIsNeverFollowed() throws Exception {
    MemoizedFn1<Integer, Integer> f = Memory.builder(cache).verbose(0).build().cache(SymlinkSwapTest::twice);
    assertThat(f.apply(1)).isEqualTo(2);
    Path folder = functionFolder(cache);
    LocalStore.deleteTree(folder);
    Files.createSymbolicLink(folder, outside);
    List<String> warnings = Captured.warnings(() -> {
      assertThat(f.apply(2)).isEqualTo(4);
      assertThat(f.apply(3)).isEqualTo(6);
    });
    assertOutsideUntouched();
    assertThat(warnings).hasSize(1).allMatch(w -> w.contains("symbolic link"));
  }

  /** A decoy entry outside, valid for the very call key, is never served through a swapped link. */
  @Test
  void aSwappedFolderHoldingAValidEntryForTheKeyIsNotRead() throws Exception {
    MemoizedFn1<Integer, Integer> f = Memory.builder(cache).verbose(0).build().cache(SymlinkSwapTest::twice);
    assertThat(f.apply(1)).isEqualTo(2);
    Path folder = functionFolder(cache);
    Path decoy = outside.resolve("decoy");
    copyTree(folder, decoy);
    for (Path output : outputs(decoy)) { // the same key, another value: what a followed link would return
      String key = output.getParent().getFileName().toString();
      io.joblib4j.Joblib.dump(CachedOutput.of(key, 999), output);
    }
    LocalStore.deleteTree(folder);
    Files.createSymbolicLink(folder, decoy);
    Map<String, String> decoyBefore = snapshot(decoy);
    for (var mapped : new MemoizedFn1[] {f, f.mmapMode(io.joblib4j.MmapMode.READ_ONLY)}) {
      Captured.warnings(() -> assertThat(mapped.apply(1)).isEqualTo(2));
    }
    assertThat(snapshot(decoy)).isEqualTo(decoyBefore);
  }

  @ParameterizedTest
  @EnumSource(value = Step.class, names = {"FOLDER_OPENED", "TEMP_CREATED", "FILE_WRITTEN", "BEFORE_RENAME"})
  void aPublishSwappedAtEachStepWritesNothingOutside(Step step) throws Exception {
    for (String swapped : new String[] {"folder", "temp"}) {
      LocalStore store = storeSwapping(step, swapped);
      try {
        store.publish("f/k", List.of(EntryFile.of("output", "mine".getBytes(UTF_8)), EntryFile.of("meta", new byte[10])));
      } catch (IOException refused) {
        // refusing is fine; writing outside is not
      }
      assertOutsideUntouched();
      // whatever the store now says, it never reads what is outside
      assertThat(readOrRefused(store, "f/k/output")).isNotEqualTo("outside");
      unswap(store.root());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Step.class, names = {"READ_OPENED"})
  void aReadSwappedBetweenFoldersReadsNothingOutside(Step step) throws Exception {
    for (String swapped : new String[] {"folder", "entry"}) {
      LocalStore plain = new LocalStore(cache);
      plain.publish("f/k", List.of(EntryFile.of("output", "mine".getBytes(UTF_8))));
      LocalStore store = storeSwapping(step, swapped);
      String read = readOrRefused(store, "f/k/output");
      assertThat(read).isIn("mine", null, "refused");
      assertOutsideUntouched();
      unswap(store.root());
      LocalStore.deleteTree(cache);
    }
  }

  @Test
  void aDeleteThatMeetsALinkRemovesTheLinkOnly() throws Exception {
    LocalStore plain = new LocalStore(cache);
    plain.publish("f/a", List.of(EntryFile.of("output", "1".getBytes(UTF_8))));
    plain.publish("f/b", List.of(EntryFile.of("output", "2".getBytes(UTF_8))));
    Files.createSymbolicLink(cache.resolve("f/planted"), outside);
    Files.createSymbolicLink(cache.resolve("f/a/file-link"), outside.resolve("output"));
    AtomicBoolean swapped = new AtomicBoolean();
    LocalStore store = new LocalStore(cache, false, (step, path) -> {
      // while the deleted tree is being removed, one of its folders becomes a link to outside
      if (step == Step.DELETE_OPENED && !swapped.getAndSet(true)) {
        Path tomb = onlyTemp(cache);
        Path b = tomb.resolve("b");
        LocalStore.deleteTree(b);
        Files.createSymbolicLink(b, outside);
      }
    });
    store.delete("f");
    assertThat(swapped).isTrue();
    assertThat(tree(cache)).isEmpty();
    assertOutsideUntouched();
    // deleting a link given by name removes the link
    Files.createSymbolicLink(cache.resolve("g"), outside);
    store.delete("g");
    assertThat(Files.exists(cache.resolve("g"), Dir.NOFOLLOW)).isFalse();
    assertOutsideUntouched();
  }

  @Test
  void clearAndReduceSizeThroughMemoryDeleteNothingOutside() throws Exception {
    Memory memory = Memory.builder(cache).verbose(0).build();
    MemoizedFn1<Integer, Integer> f = memory.cache(SymlinkSwapTest::twice);
    for (int i = 0; i < 5; i++) {
      f.apply(i);
    }
    Path folder = functionFolder(cache);
    Files.createSymbolicLink(folder.resolve("0123456789abcdef0123456789abcdef"), outside);
    Files.createSymbolicLink(cache.resolve("other-0123456789ab"), outside);
    memory.reduceSize("1", null, null);
    assertOutsideUntouched();
    memory.clear();
    assertOutsideUntouched();
    assertThat(Files.exists(outside.resolve("k/output"))).isTrue();
  }

  @Test
  void aListingNeverEntersALinkSwappedInAsItWalks() throws Exception {
    LocalStore plain = new LocalStore(cache);
    plain.publish("f/k", List.of(EntryFile.of("output", "1".getBytes(UTF_8))));
    plain.publish("g/k", List.of(EntryFile.of("output", "2".getBytes(UTF_8))));
    AtomicBoolean swapped = new AtomicBoolean();
    LocalStore store = new LocalStore(cache, false, (step, path) -> {
      if (step == Step.LIST_OPENING && path.equals("g") && !swapped.getAndSet(true)) {
        LocalStore.deleteTree(cache.resolve("g"));
        Files.createSymbolicLink(cache.resolve("g"), outside);
      }
    });
    List<String> listed = store.list("").stream().map(StoreFile::path).toList();
    assertThat(swapped).isTrue();
    assertThat(listed).contains("f", "f/k", "f/k/output").noneMatch(p -> p.startsWith("g/"));
    assertThatThrownBy(() -> store.list("g")).isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> store.children("g")).isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
    assertOutsideUntouched();
  }

  @Test
  void aSweepRemovesALinkedTemporaryNotWhatItPointsTo() throws Exception {
    LocalStore store = new LocalStore(cache);
    Files.createSymbolicLink(cache.resolve(".tmp-dead-1"), outside);
    Files.createDirectories(cache.resolve("f"));
    Files.createSymbolicLink(cache.resolve("f/.tmp-k-dead"), outside);
    setOld(cache.resolve(".tmp-dead-1"));
    setOld(cache.resolve("f/.tmp-k-dead"));
    assertThat(store.sweep(Duration.ofMinutes(1))).isEqualTo(2);
    assertThat(tree(cache)).containsExactly("f");
    assertOutsideUntouched();
  }

  @Test
  void theRootReplacedWhileInUseIsReopenedAndALinkedRootRefused() throws Exception {
    LocalStore store = new LocalStore(cache);
    store.publish("f/a", List.of(EntryFile.of("output", "1".getBytes(UTF_8))));
    LocalStore.deleteTree(cache);
    Files.createDirectories(cache.resolve("f/b"));
    Files.writeString(cache.resolve("f/b/output"), "2");
    assertThat(readOrRefused(store, "f/b/output")).isEqualTo("2");
    assertThat(store.publish("f/c", List.of(EntryFile.of("output", "3".getBytes(UTF_8))))).isEqualTo(Store.Publication.PUBLISHED);
    LocalStore.deleteTree(cache);
    Files.createSymbolicLink(cache, outside);
    assertThatThrownBy(() -> store.publish("f/d", List.of(EntryFile.of("output", "4".getBytes(UTF_8)))))
        .hasMessageContaining("symbolic link");
    Files.delete(cache);
    assertOutsideUntouched();
  }

  @Test
  void storesWithoutDirectoryDescriptorsStillRefusePlantedLinks() throws Exception {
    LocalStore store = new LocalStore(cache, true, Interleaving.NONE);
    store.publish("f/k", List.of(EntryFile.of("output", "1".getBytes(UTF_8))));
    Files.createSymbolicLink(cache.resolve("g"), outside);
    assertThatThrownBy(() -> store.open("g/output")).hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> store.publish("g/k", List.of(EntryFile.of("output", "x".getBytes(UTF_8)))))
        .hasMessageContaining("symbolic link");
    assertThat(readOrRefused(store, "f/k/output")).isEqualTo("1");
    store.delete("");
    assertThat(tree(cache)).isEmpty();
    assertOutsideUntouched();
  }

  /**
   * Memoized calls (stores, hits, mapped hits, clears) while another thread keeps swapping the
   * function folder for a link to outside and back: whatever interleaving the scheduler picks,
   * nothing outside changes and no call returns a wrong value.
   */
  @Test
  void callsRacingAThreadThatKeepsSwappingLinksInNeverReachOutside() throws Exception {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      cache = Files.createTempDirectory(shm, "joblib4j-swap").resolve("cache"); // misses without fsync costs
    }
    try {
      raceSwaps();
    } finally {
      if (cache.startsWith(shm)) {
        LocalStore.deleteTree(cache.getParent());
      }
    }
  }

  private void raceSwaps() throws Exception {
    Memory memory = Memory.builder(cache).verbose(0).build();
    MemoizedFn1<Integer, Integer> f = memory.cache(SymlinkSwapTest::twice);
    MemoizedFn1<Integer, Integer> mapped = f.mmapMode(io.joblib4j.MmapMode.READ_ONLY);
    f.apply(0);
    Path folder = functionFolder(cache);
    Path aside = cache.resolve("aside");
    AtomicBoolean stop = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger swaps = new java.util.concurrent.atomic.AtomicInteger();
    Thread swapper = new Thread(() -> {
      while (!stop.get()) {
        try {
          if (Files.isDirectory(folder, Dir.NOFOLLOW)) {
            if (Files.exists(aside, Dir.NOFOLLOW)) {
              LocalStore.deleteTree(aside); // a clear let the calls make the folder anew: the old one is stale
            }
            Files.move(folder, aside);
            Files.createSymbolicLink(folder, outside);
          } else {
            Files.deleteIfExists(folder);
            if (Files.isDirectory(aside, Dir.NOFOLLOW)) {
              Files.move(aside, folder);
            }
          }
          swaps.incrementAndGet();
          Thread.yield();
        } catch (IOException raced) {
          // a call created the folder meanwhile: next round
        }
      }
    });
    swapper.start();
    try {
      Captured.warnings(() -> {
        // at least 400 calls, and on until the swapper has swapped a few times: on a busy machine it may get
        // the CPU late, and the race is only tested once it runs (a bound ends a swapper that never does)
        for (int i = 0; i < 400 || swaps.get() <= 10 && i < 400_000; i++) {
          int x = i % 50;
          assertThat(f.apply(x)).isEqualTo(2 * x);
          assertThat(mapped.apply(x)).isEqualTo(2 * x);
          if (i % 100 == 99) {
            f.clear();
          }
        }
      });
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertThat(swaps.get()).isGreaterThan(10);
    System.out.println("symlink swaps during the calls: " + swaps.get());
    assertOutsideUntouched();
  }

  // ---- helpers --------------------------------------------------------------------------------

  /** A store that, the first time it reaches {@code step}, replaces {@code what} with a link to outside. */
  private LocalStore storeSwapping(Step step, String what) throws IOException {
    AtomicBoolean done = new AtomicBoolean();
    return new LocalStore(cache, false, (at, path) -> {
      if (at != step || done.getAndSet(true)) {
        return;
      }
      Path target = switch (what) {
        case "folder" -> cache.resolve("f");
        case "entry" -> cache.resolve("f/k");
        default -> temps(cache).stream().findFirst().orElse(null);
      };
      if (target == null) {
        return; // no temporary yet at this step
      }
      Path aside = target.resolveSibling(target.getFileName() + "-aside");
      Files.move(target, aside); // still inside the root: what an open handle then reaches
      Files.createSymbolicLink(target, outside);
    });
  }

  /** Removes the links a swap planted (and what was set aside), so the next round starts clean. */
  private static void unswap(Path root) throws IOException {
    LocalStore.deleteTree(root);
  }

  private static String readOrRefused(Store store, String path) {
    try {
      Optional<InputStream> in = store.open(path);
      if (in.isEmpty()) {
        return null;
      }
      try (InputStream s = in.get()) {
        return new String(s.readAllBytes(), UTF_8);
      }
    } catch (IOException e) {
      assertThat(e).hasMessageContaining("symbolic link");
      return "refused";
    }
  }

  private void assertOutsideUntouched() throws IOException {
    assertThat(snapshot(outside)).as("outside the root").isEqualTo(outsideBefore);
  }

  private static Path onlyTemp(Path root) {
    return temps(root).stream().findFirst().orElseThrow();
  }

  private static List<Path> temps(Path root) {
    try (Stream<Path> s = Files.list(root)) {
      return s.filter(p -> p.getFileName().toString().startsWith(LocalTree.TEMP_PREFIX)).toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void setOld(Path p) throws IOException {
    java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.from(java.time.Instant.now().minus(Duration.ofHours(2)));
    Files.getFileAttributeView(p, java.nio.file.attribute.BasicFileAttributeView.class, Dir.NOFOLLOW).setTimes(old, null, null);
  }

  static Path functionFolder(Path cache) throws IOException {
    try (Stream<Path> s = Files.list(cache)) {
      return s.filter(p -> p.getFileName().toString().startsWith("io.joblib4j")).findFirst().orElseThrow();
    }
  }

  private static List<Path> outputs(Path folder) throws IOException {
    try (Stream<Path> s = Files.walk(folder)) {
      return s.filter(p -> p.getFileName().toString().equals(Layout.OUTPUT_FILE)).toList();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** Every path under {@code p} (links not followed) with its content, for files. */
  static Map<String, String> snapshot(Path p) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : s.toList()) {
        out.put(p.relativize(q).toString(), Files.isRegularFile(q, Dir.NOFOLLOW)
            ? io.joblib4j.Joblib.hash(Files.readAllBytes(q)) : Files.isSymbolicLink(q) ? "link" : "dir");
      }
    }
    return out;
  }

  static List<String> tree(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(q -> !q.equals(p)).map(q -> p.relativize(q).toString()).sorted().toList();
    }
  }
}
