package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spi.Store;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What listing a cache of many entries costs in S3 requests ({@code ls}, {@code entries()}, and a
 * Memory's limits all list): S3A's own IOStatistics of the store's FileSystem instance. The entries
 * are copies of one real entry's manifest under other keys, written with the AWS SDK (a Memory
 * storing them one by one would take minutes). {@code -Djoblib4j.it.listEntries} sets how many
 * (BENCHMARKS.md's figure is with 10,000). Each copy but {@link #LEGACY} of them has the entry's
 * {@link EntrySummary} beside it, so a first listing answers from the LIST pages alone; the others
 * stand for entries written before summaries, whose manifests it reads (one GET each). The store
 * remembers those by ETag, so listing again costs the LIST pages alone.
 */
class S3ListingRequestsIT {
  static final int ENTRIES = Integer.getInteger("joblib4j.it.listEntries", 2_500);
  /** Copies without a summary, as an earlier version wrote them. */
  static final int LEGACY = 10;
  @TempDir Path dir;

  static long[] square(int x) {
    return new long[] {x, (long) x * x};
  }

  @Test
  void listingEntriesMakesOneListPerThousandKeysAndReadsOnlyTheManifestsWithoutASummary() throws Exception {
    S3Server s3 = S3Server.shared();
    URI location = s3.newLocation("listing");
    try (Store store = HadoopStoreOpener.open(location, s3.conf(true), Map.of("localCacheDir", dir.toString()))) {
      Memory memory = Memory.builder(store).verbose(0).build();
      MemoizedFn1<Integer, long[]> f = memory.cache(S3ListingRequestsIT::square);
      f.apply(0);
      String entry = memory.entries().stream().findFirst().orElseThrow().path();
      copies(s3, location, entry, ENTRIES - 1);

      Map<String, Long> before = S3RequestsIT.counters(store);
      long t0 = System.nanoTime();
      int listed = memory.entries().size();
      long first = System.nanoTime() - t0;
      Map<String, Long> firstListing = S3RequestsIT.delta(before, S3RequestsIT.counters(store));
      before = S3RequestsIT.counters(store);
      t0 = System.nanoTime();
      assertThat(memory.entries().size()).isEqualTo(listed);
      long second = System.nanoTime() - t0;
      Map<String, Long> again = S3RequestsIT.delta(before, S3RequestsIT.counters(store));
      // the baseline: a hand-written recursive S3A listing of the same keys, on a FileSystem of its own
      long plainRequests;
      long plainNanos;
      int plainFiles = 0;
      try (FileSystem plain = FileSystem.newInstance(location, s3.conf(true))) {
        Map<String, Long> b = new TreeMap<>(((IOStatisticsSource) plain).getIOStatistics().counters());
        t0 = System.nanoTime();
        RemoteIterator<LocatedFileStatus> it = plain.listFiles(new org.apache.hadoop.fs.Path(location), true);
        while (it.hasNext()) {
          it.next();
          plainFiles++;
        }
        plainNanos = System.nanoTime() - t0;
        plainRequests = S3RequestsIT.requests(S3RequestsIT.delta(b, ((IOStatisticsSource) plain).getIOStatistics().counters()));
      }
      System.out.printf("entries() of %d entries: first %d requests %s in %d ms; again %d requests %s in %d ms;"
          + " baseline listFiles of %d objects: %d requests in %d ms%n",
          listed, S3RequestsIT.requests(firstListing), firstListing, first / 1_000_000, S3RequestsIT.requests(again),
          again, second / 1_000_000, plainFiles, plainRequests, plainNanos / 1_000_000);

      assertThat(listed).isEqualTo(ENTRIES);
      // one LIST per 1,000 keys (two keys an entry: its manifest and its summary), plus a constant: the
      // status probes of the root and the function's folder (S3A: a HEAD and a LIST each), the root's
      // listing, the first page of the function's folder (whether it is visible) and S3A's prefetch of
      // the page after it
      long pages = 2L * ENTRIES / 1000 + 1 + 7;
      long lists = firstListing.getOrDefault("object_list_request", 0L)
          + firstListing.getOrDefault("object_continue_list_request", 0L);
      assertThat(lists).as("LIST requests: " + firstListing).isLessThanOrEqualTo(pages);
      assertThat(S3RequestsIT.writes(firstListing)).isZero();
      // a summary names an entry's files and sizes: a GET only for the entries without one (and
      // function.json), no HEAD
      assertThat(firstListing.getOrDefault("action_http_get_request", 0L)).as(firstListing.toString())
          .isLessThanOrEqualTo(LEGACY + 4L);
      assertThat(firstListing.getOrDefault("action_http_head_request", 0L)).as(firstListing.toString())
          .isLessThanOrEqualTo(4L);
      assertThat(S3RequestsIT.requests(again)).as("a second listing: " + again).isLessThanOrEqualTo(pages + 5);
    }
  }

  /** {@code n} copies of {@code entry}'s manifest and (but for {@link #LEGACY}) its summary under new keys of its function's folder. */
  private static void copies(S3Server s3, URI location, String entry, int n) throws Exception {
    String prefix = location.getPath().substring(1) + "/";
    String folder = entry.substring(0, entry.indexOf('/'));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (S3Client client = s3.client()) {
      byte[] manifest = client.getObjectAsBytes(b -> b.bucket(S3Server.BUCKET).key(prefix + entry + "/" + Names.COMMIT))
          .asByteArray();
      String summary = client.listObjectsV2(b -> b.bucket(S3Server.BUCKET).prefix(prefix + entry + "/" + EntrySummary.PREFIX))
          .contents().get(0).key();
      String summaryName = summary.substring(summary.lastIndexOf('/') + 1);
      java.util.concurrent.atomic.AtomicInteger legacy = new java.util.concurrent.atomic.AtomicInteger(LEGACY);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int share = n / 8 + (t < n % 8 ? 1 : 0);
        done.add(pool.submit(() -> {
          for (int i = 0; i < share; i++) {
            byte[] k = new byte[16];
            ThreadLocalRandom.current().nextBytes(k);
            String key = prefix + folder + "/" + HexFormat.of().formatHex(k) + "/" + Names.COMMIT;
            client.putObject(b -> b.bucket(S3Server.BUCKET).key(key), RequestBody.fromBytes(manifest));
            if (legacy.getAndDecrement() <= 0) {
              String beside = key.substring(0, key.lastIndexOf('/') + 1) + summaryName;
              // a server-side copy: the SDK's PUT of an empty body breaks its connection to S3Proxy
              client.copyObject(b -> b.sourceBucket(S3Server.BUCKET).sourceKey(summary)
                  .destinationBucket(S3Server.BUCKET).destinationKey(beside));
            }
          }
          return null;
        }));
      }
      for (Future<?> d : done) {
        d.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
