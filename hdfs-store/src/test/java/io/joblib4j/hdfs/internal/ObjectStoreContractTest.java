package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Store contract, unchanged, on an object store whose rename is not atomic: marker mode. And
 * the reason marker mode exists: on such a store, a renamed folder is seen half copied.
 */
class ObjectStoreContractTest extends StoreContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws Exception {
    Store s = HadoopStoreOpener.open(FakeObjectStore.location(dir.resolve("bucket")),
        FakeObjectStore.register(new Configuration()), Map.of("localCacheDir", dir.resolve("copies").toString()));
    assertThat(s).isInstanceOf(MarkerStore.class); // an unknown scheme is treated as an object store
    return s;
  }

  /** A dead attempt: its sweep record (started {@code age} ago, by the time in its name) and its object. */
  @Override
  protected void leaveDeadWritersTemporary(String entry, Duration age) throws Exception {
    Path bucket = dir.resolve("bucket");
    String attempt = "0123456789abcdef01234567";
    long started = Instant.now().minus(age).toEpochMilli();
    Path record = bucket.resolve(".jl4j-tmp").resolve(".jl4j-" + attempt + "." + started + ".claim");
    Files.createDirectories(record.getParent());
    Files.writeString(record, entry);
    Path target = bucket.resolve(entry);
    Files.createDirectories(target);
    Files.writeString(target.resolve(".jl4j-a." + attempt + ".output"), "half");
  }

  @Test
  void withoutAnExclusiveCreateRacingWritersOfTheSameBytesStillLeaveOneWholeEntry() throws Exception {
    Configuration conf = FakeObjectStore.register(new Configuration());
    conf.setBoolean("fakeobj.exclusive-create", false);
    byte[] output = "the same result".repeat(5_000).getBytes(StandardCharsets.UTF_8);
    try (Store racy = HadoopStoreOpener.open(FakeObjectStore.location(dir.resolve("racy")), conf,
        Map.of("localCacheDir", dir.resolve("racy-copies").toString()))) {
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<Store.Publication>> results = new java.util.ArrayList<>();
      for (int w = 0; w < 6; w++) {
        results.add(pool.submit(() -> {
          go.await();
          return racy.publish("f/k", List.of(EntryFile.of("output", output), EntryFile.of("metadata.json", "m".getBytes())));
        }));
      }
      go.countDown();
      for (var r : results) {
        assertThat(r.get(60, java.util.concurrent.TimeUnit.SECONDS)).isNotNull(); // nobody fails
      }
      pool.shutdown();
      assertThat(read(racy, "f/k/output")).isEqualTo(new String(output, StandardCharsets.UTF_8));
      assertThat(read(racy, "f/k/metadata.json")).isEqualTo("m");
      assertThat(racy.list("f").stream().filter(f -> !f.directory()).map(f -> f.path()))
          .containsExactlyInAnyOrder("f/k/output", "f/k/metadata.json");
    }
  }

  @Test
  void thisStoresRenameIsSeenHalfDoneWhichIsWhyEntriesAreNeverRenamedOnIt() throws Exception {
    Configuration conf = FakeObjectStore.register(new Configuration());
    FileSystem fs = FileSystem.get(FakeObjectStore.location(dir.resolve("raw")), conf);
    org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(FakeObjectStore.location(dir.resolve("raw/src")));
    org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path(FakeObjectStore.location(dir.resolve("raw/dst")));
    for (int i = 0; i < 20; i++) {
      try (var out = fs.create(new org.apache.hadoop.fs.Path(src, "f" + i), false)) {
        out.write("x".getBytes(StandardCharsets.UTF_8));
      }
    }
    AtomicBoolean sawPartial = new AtomicBoolean();
    Thread watcher = new Thread(() -> {
      for (int i = 0; i < 2_000 && !sawPartial.get(); i++) {
        try {
          int n = fs.exists(dst) ? fs.listStatus(dst).length : 0;
          if (n > 0 && n < 20) {
            sawPartial.set(true);
          }
          Thread.sleep(1);
        } catch (Exception e) {
          // listing raced the copy; try again
        }
      }
    });
    watcher.start();
    assertThat(fs.rename(src, dst)).isTrue();
    watcher.join();
    assertThat(sawPartial).isTrue();
  }
}
