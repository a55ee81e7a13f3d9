package io.joblib4j.hdfs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store.Publication;
import io.joblib4j.spi.StoreFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Store contract, unchanged, on S3 (S3Proxy through S3A), with S3A's conditional writes on and off. */
class S3StoreContractIT {
  abstract static class OnS3 extends StoreContractTest {
    @TempDir java.nio.file.Path localCache;
    URI location;

    abstract boolean conditionalWrites();

    @Override
    protected Store newEmptyStore() throws Exception {
      S3Server.skipWhereAskingForConditionalWritesChangesNothing(conditionalWrites());
      S3Server s3 = S3Server.shared();
      location = s3.newLocation("contract");
      Map<String, Object> options = new HashMap<>(Map.of("localCacheDir", localCache.toString()));
      return HadoopStoreOpener.open(location, s3.conf(conditionalWrites()), options);
    }

    /** A dead attempt: its sweep record (started {@code age} ago, by the time in its name) and its object. */
    @Override
    protected void leaveDeadWritersTemporary(String entry, Duration age) throws Exception {
      String attempt = "0123456789abcdef01234567";
      long started = Instant.now().minus(age).toEpochMilli();
      try (FileSystem fs = FileSystem.newInstance(location, S3Server.shared().conf(conditionalWrites()))) {
        write(fs, new Path(location + "/.jl4j-tmp/.jl4j-" + attempt + "." + started + ".claim"), entry);
        write(fs, new Path(location + "/" + entry + "/.jl4j-a." + attempt + ".output"), "half");
      }
    }

    private static void write(FileSystem fs, Path p, String content) throws Exception {
      try (FSDataOutputStream out = fs.create(p, true)) {
        out.write(content.getBytes(StandardCharsets.UTF_8));
      }
    }

    /**
     * Where a create is a check and then a PUT (writes off, or an S3A without conditional create, as
     * Spark 3.5's hadoop-aws 3.3.x), several racing writers can pass the check, and each
     * may report PUBLISHED (the manifest written last wins); what the contract keeps is the rest:
     * every reader sees one writer's files, whole, and nothing else is left visible.
     */
    @Override
    @Test
    public void ofConcurrentPublishersOfOneEntryOneWinsAndEveryReaderSeesItsContent() throws Exception {
      if (conditionalWrites()) {
        super.ofConcurrentPublishersOfOneEntryOneWinsAndEveryReaderSeesItsContent();
        return;
      }
      int writers = 8;
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Publication>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String content = "writer-" + w + "-" + "x".repeat(100_000);
        results.add(pool.submit(() -> {
          start.await();
          return store.publish("f/shared", List.of(EntryFile.of("output", content.getBytes(StandardCharsets.UTF_8)),
              EntryFile.of("metadata.json", content.substring(0, 8).getBytes(StandardCharsets.UTF_8))));
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
      assertThat(published).isPositive();
      String output = read(store, "f/shared/output");
      assertThat(output).hasSize("writer-0-".length() + 100_000).startsWith(read(store, "f/shared/metadata.json"));
      assertThat(store.list("f").stream().filter(f -> !f.directory()).map(StoreFile::path))
          .containsExactlyInAnyOrder("f/shared/output", "f/shared/metadata.json");
    }
  }

  @Nested
  class WithConditionalWrites extends OnS3 {
    @Override
    boolean conditionalWrites() {
      return true;
    }
  }

  @Nested
  class WithoutConditionalWrites extends OnS3 {
    @Override
    boolean conditionalWrites() {
      return false;
    }
  }
}
