package io.joblib4j.spi;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.joblib4j.spi.Store.Publication;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guarantees every {@link Store} gives (see its class documentation), as tests. A store's test
 * extends this class and says how to open an empty store; it runs unchanged against local disk,
 * HDFS, or anything else.
 */
@Timeout(120)
public abstract class StoreContractTest {
  protected Store store;

  /** A new, empty store for one test. */
  protected abstract Store newEmptyStore() throws Exception;

  /**
   * Leaves behind what a writer of {@code entry} that died mid-publish would leave (a temporary),
   * dated {@code age} ago.
   */
  protected abstract void leaveDeadWritersTemporary(String entry, Duration age) throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = newEmptyStore();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  protected static String read(Store store, String path) throws IOException {
    Optional<InputStream> in = store.open(path);
    if (in.isEmpty()) {
      return null;
    }
    try (InputStream s = in.get()) {
      return new String(s.readAllBytes(), UTF_8);
    }
  }

  private static List<EntryFile> files(String output, String metadata) {
    return List.of(EntryFile.of("output", output.getBytes(UTF_8)), EntryFile.of("metadata.json", metadata.getBytes(UTF_8)));
  }

  @Test
  public void aPublishedEntryReadsBackFileByFile() throws Exception {
    assertThat(store.publish("f/k1", files("value-1", "{\"m\":1}"))).isEqualTo(Publication.PUBLISHED);
    assertThat(read(store, "f/k1/output")).isEqualTo("value-1");
    assertThat(read(store, "f/k1/metadata.json")).isEqualTo("{\"m\":1}");
    assertThat(store.exists("f/k1")).isTrue();
    assertThat(store.exists("f/k1/output")).isTrue();
  }

  @Test
  public void aMissingFileIsEmptyNotAnError() throws Exception {
    assertThat(store.open("f/none/output")).isEmpty();
    assertThat(store.localFile("f/none/output")).isEmpty();
    assertThat(store.exists("f/none")).isFalse();
    assertThat(store.list("f/none")).isEmpty();
  }

  @Test
  public void publishingAnExistingEntryLeavesItUntouched() throws Exception {
    store.publish("f/k", files("first", "m1"));
    assertThat(store.publish("f/k", files("second", "m2"))).isEqualTo(Publication.ALREADY_PRESENT);
    assertThat(read(store, "f/k/output")).isEqualTo("first");
    assertThat(read(store, "f/k/metadata.json")).isEqualTo("m1");
  }

  @Test
  public void ofConcurrentPublishersOfOneEntryOneWinsAndEveryReaderSeesItsContent() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Publication>> results = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      String content = "writer-" + w + "-" + "x".repeat(10_000);
      results.add(pool.submit(() -> {
        start.await();
        return store.publish("f/shared", files(content, content.substring(0, 8)));
      }));
    }
    start.countDown();
    int published = 0;
    for (Future<Publication> f : results) {
      if (f.get(60, TimeUnit.SECONDS) == Publication.PUBLISHED) {
        published++;
      }
    }
    pool.shutdown();
    assertThat(published).isEqualTo(1);
    String output = read(store, "f/shared/output");
    String metadata = read(store, "f/shared/metadata.json");
    assertThat(output).hasSize("writer-0-".length() + 10_000);
    assertThat(output).startsWith(metadata); // both files from the same writer
    assertThat(store.list("f").stream().filter(StoreFile::directory).map(StoreFile::path))
        .containsExactly("f/shared");
  }

  @Test
  public void readersNeverSeeAPartialEntry() throws Exception {
    CountDownLatch halfWritten = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    byte[] big = "y".repeat(200_000).getBytes(UTF_8);
    Thread writer = new Thread(() -> {
      try {
        store.publish("f/slow", List.of(
            EntryFile.of("metadata.json", "m".getBytes(UTF_8)),
            new EntryFile("output", out -> {
              out.write(big, 0, big.length / 2);
              out.flush();
              halfWritten.countDown();
              try {
                finish.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IOException(e);
              }
              out.write(big, big.length / 2, big.length - big.length / 2);
            })));
      } catch (IOException | RuntimeException e) {
        throw new AssertionError(e);
      }
    });
    writer.start();
    assertThat(halfWritten.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(store.exists("f/slow")).isFalse();
    assertThat(read(store, "f/slow/metadata.json")).isNull();
    assertThat(read(store, "f/slow/output")).isNull();
    assertThat(store.list("")).noneMatch(f -> f.path().contains("slow"));
    finish.countDown();
    writer.join(30_000);
    assertThat(read(store, "f/slow/output")).hasSize(big.length);
  }

  @Test
  public void aWriterThatFailsLeavesNothingVisible() throws Exception {
    assertThatThrownBy(() -> store.publish("f/broken", List.of(
        EntryFile.of("metadata.json", "m".getBytes(UTF_8)),
        new EntryFile("output", out -> {
          out.write(new byte[1000]);
          throw new IOException("No space left on device");
        })))).isInstanceOf(IOException.class).hasMessageContaining("No space left");
    assertThat(store.exists("f/broken")).isFalse();
    assertThat(store.list("")).noneMatch(f -> f.path().contains("broken"));
    // and the key is usable again
    assertThat(store.publish("f/broken", files("ok", "m"))).isEqualTo(Publication.PUBLISHED);
    assertThat(read(store, "f/broken/output")).isEqualTo("ok");
  }

  @Test
  public void replaceIsAtomicForConcurrentReaders() throws Exception {
    store.replace("f/function.json", ("old" + "o".repeat(50_000)).getBytes(UTF_8));
    AtomicBoolean stop = new AtomicBoolean();
    List<String> torn = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        try {
          String s = read(store, "f/function.json");
          if (s != null && !(s.equals("old" + "o".repeat(50_000)) || s.equals("new" + "n".repeat(50_000)))) {
            torn.add(s.substring(0, Math.min(20, s.length())) + "... (" + s.length() + ")");
          }
        } catch (IOException e) {
          torn.add(e.toString());
        }
      }
    });
    reader.start();
    for (int i = 0; i < 20; i++) {
      store.replace("f/function.json", ((i % 2 == 0 ? "new" + "n".repeat(50_000) : "old" + "o".repeat(50_000))).getBytes(UTF_8));
    }
    stop.set(true);
    reader.join();
    assertThat(torn).isEmpty();
    assertThat(read(store, "f/function.json")).startsWith("old");
  }

  @Test
  public void deleteRemovesWholeTreesAndIsIdempotent() throws Exception {
    store.publish("f/a", files("1", "m"));
    store.publish("f/b", files("2", "m"));
    store.publish("g/c", files("3", "m"));
    store.delete("f/a");
    assertThat(store.exists("f/a")).isFalse();
    assertThat(store.exists("f/b")).isTrue();
    store.delete("f/a");
    store.delete("f");
    assertThat(store.exists("f")).isFalse();
    assertThat(store.exists("g/c/output")).isTrue();
    store.delete("");
    assertThat(store.list("")).isEmpty();
    assertThat(store.publish("g/c", files("4", "m"))).isEqualTo(Publication.PUBLISHED);
  }

  @Test
  public void listReportsEveryFileWithItsSizeRecursively() throws Exception {
    store.publish("f/k1", files("12345", "m"));
    store.publish("f/k2", files("1234567890", "mm"));
    store.replace("f/function.json", "{}".getBytes(UTF_8));
    List<StoreFile> all = store.list("");
    assertThat(all.stream().filter(f -> !f.directory()).collect(Collectors.toMap(StoreFile::path, StoreFile::size)))
        .containsEntry("f/k1/output", 5L)
        .containsEntry("f/k2/output", 10L)
        .containsEntry("f/k2/metadata.json", 2L)
        .containsEntry("f/function.json", 2L);
    assertThat(all.stream().filter(StoreFile::directory).map(StoreFile::path))
        .contains("f", "f/k1", "f/k2");
    assertThat(store.list("f/k1").stream().map(StoreFile::path)).containsExactlyInAnyOrder("f/k1/output", "f/k1/metadata.json");
  }

  @Test
  public void aFolderOfManyEntriesListsEveryFileOnceEachFolderBeforeWhatItHolds() throws Exception {
    int n = 100; // more subfolders than a store lists one after another before it lists them in parallel
    for (int i = 0; i < n; i++) {
      store.publish("f/k" + i, files("x".repeat(i), "m"));
    }
    Set<String> seen = new HashSet<>();
    for (StoreFile f : store.list("")) {
      int slash = f.path().lastIndexOf('/');
      if (slash > 0) {
        assertThat(seen).as(f.path() + " comes after its folder").contains(f.path().substring(0, slash));
      }
      assertThat(seen.add(f.path())).as(f.path() + " listed once").isTrue();
    }
    List<StoreFile> outputs = store.list("f").stream().filter(f -> f.path().endsWith("/output")).toList();
    assertThat(outputs).hasSize(n);
    assertThat(outputs.stream().mapToLong(StoreFile::size).sum()).isEqualTo((long) n * (n - 1) / 2);
    assertThat(seen).hasSize(1 + 3 * n);
  }

  @Test
  public void childrenAreWhatADirectoryHoldsOneLevelDeep() throws Exception {
    store.publish("f/k1", files("12345", "m"));
    store.replace("f/function.json", "{}".getBytes(UTF_8));
    store.publish("g/sub/k", files("1", "m"));
    store.replace("top.txt", "abc".getBytes(UTF_8));
    Instant touched = Instant.now().minus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS);
    store.touch("f/k1", touched);
    assertThat(store.children("")).extracting(StoreFile::path, StoreFile::directory)
        .containsExactlyInAnyOrder(tuple("f", true), tuple("g", true), tuple("top.txt", false));
    assertThat(store.children("").stream().filter(f -> f.path().equals("top.txt")).findFirst().orElseThrow().size())
        .isEqualTo(3);
    List<StoreFile> inF = store.children("f");
    assertThat(inF).extracting(StoreFile::path, StoreFile::directory)
        .containsExactlyInAnyOrder(tuple("f/k1", true), tuple("f/function.json", false));
    // the same view of an entry as list gives, access time included
    assertThat(inF.stream().filter(f -> f.path().equals("f/k1")).findFirst().orElseThrow().lastModified())
        .isEqualTo(store.list("f").stream().filter(f -> f.path().equals("f/k1")).findFirst().orElseThrow().lastModified());
    assertThat(store.children("g/sub")).extracting(StoreFile::path).containsExactly("g/sub/k");
    assertThat(store.children("missing")).isEmpty();
    assertThat(store.children("top.txt")).isEmpty();
  }

  @Test
  public void touchRecordsTheAccessTimeOfAnEntry() throws Exception {
    store.publish("f/k", files("v", "m"));
    Instant then = Instant.now().minus(Duration.ofDays(3)).truncatedTo(ChronoUnit.SECONDS);
    store.touch("f/k", then);
    StoreFile entry = store.list("f").stream().filter(f -> f.path().equals("f/k")).findFirst().orElseThrow();
    assertThat(entry.lastModified().truncatedTo(ChronoUnit.SECONDS)).isEqualTo(then);
    store.touch("f/gone", Instant.now()); // an entry deleted meanwhile is not an error
  }

  @Test
  public void aLocalFileHoldsTheSameBytes() throws Exception {
    byte[] content = new byte[100_000];
    Arrays.fill(content, (byte) 7);
    store.publish("f/arr", List.of(EntryFile.of("output", content)));
    Path local = store.localFile("f/arr/output").orElseThrow();
    assertThat(Files.readAllBytes(local)).isEqualTo(content);
  }

  @Test
  public void sweepRemovesDeadWritersTemporariesButNothingElse() throws Exception {
    store.publish("f/good", files("v", "m"));
    leaveDeadWritersTemporary("f/dead", Duration.ofHours(2));
    assertThat(store.temporaries(Duration.ofDays(1))).isEmpty();
    assertThat(store.temporaries(Duration.ofHours(1))).hasSize(1); // what Memory.verify reports
    assertThat(store.sweep(Duration.ofDays(1))).isZero();
    assertThat(store.sweep(Duration.ofHours(1))).isEqualTo(1);
    assertThat(store.temporaries(Duration.ofHours(1))).isEmpty();
    assertThat(read(store, "f/good/output")).isEqualTo("v");
    assertThat(store.exists("f/dead")).isFalse();
    assertThat(store.publish("f/dead", files("now", "m"))).isEqualTo(Publication.PUBLISHED);
  }

  @Test
  public void pathsThatCouldLeaveTheRootAreRejected() {
    for (String bad : new String[] {"../escape", "/absolute", "a//b", "a/./b", "a/../../b", "a\\b", "nul\0", "a/", "sp ace"}) {
      assertThatThrownBy(() -> store.open(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.publish(bad, files("x", "y"))).as(bad).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.delete(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
