package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spi.Store;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each Memory operation costs in S3 requests, counted by S3A's own IOStatistics of the store's
 * FileSystem instance: a hit never writes and makes at most 2 requests; a miss and its store at most
 * 6 (the manifest's PUT and its summary's among them), with conditional writes and without: there the
 * miss's own lookup is the check before the manifest's PUT, and a small entry, held in its manifest,
 * leaves nothing to read back. The hadoop-aws 3.3 of Spark 3.5 has no {@code fs.s3a.create.performance}:
 * its create probes for a folder at the path with a LIST, one per PUT, so 8 there.
 */
class S3RequestsIT {
  @TempDir Path dir;

  static long[] square(int x) {
    return new long[] {x, (long) x * x};
  }

  @Test
  void aSmallHitReadsAtMostTwoObjectsAndWritesNothingAndAMissStoresInAtMostSix() throws Exception {
    for (boolean conditional : new boolean[] {true, false}) {
      S3Server s3 = S3Server.shared();
      URI location = s3.newLocation("requests");
      try (Store store = HadoopStoreOpener.open(location, s3.conf(conditional), Map.of("localCacheDir", dir.toString()))) {
        Memory memory = new Memory(store);
        MemoizedFn1<Integer, long[]> f = memory.cache(S3RequestsIT::square);
        f.apply(0); // the function's folder, once per JVM
        Map<String, Long> before = counters(store);
        f.apply(1);
        Map<String, Long> miss = delta(before, counters(store));
        before = counters(store);
        f.apply(1);
        Map<String, Long> hit = delta(before, counters(store));
        System.out.println("conditional=" + conditional + " miss+store " + miss + " hit " + hit);
        assertThat(writes(hit)).as("writes of a hit: " + hit).isZero();
        assertThat(requests(hit)).as("requests of a hit: " + hit).isLessThanOrEqualTo(2);
        assertThat(requests(miss)).as("requests of a miss and its store: " + miss)
            .isLessThanOrEqualTo(createProbes() ? 8 : 6);
        // the manifest, then its summary (what listings show of the entry without reading the manifest)
        assertThat(writes(miss)).as("writes of a miss and its store: " + miss).isEqualTo(2);
      }
    }
  }

  /** Whether this S3A probes before every create (hadoop-aws 3.3: no create performance option). */
  static boolean createProbes() {
    return org.apache.hadoop.util.VersionInfo.getVersion().startsWith("3.3.");
  }

  static Map<String, Long> counters(Store store) {
    return new TreeMap<>(((IOStatisticsSource) ((HadoopStore) store).fs).getIOStatistics().counters());
  }

  static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach((k, v) -> {
      long n = v - before.getOrDefault(k, 0L);
      if (n != 0 && isRequest(k)) {
        d.put(k, n);
      }
    });
    return d;
  }

  /** The counters of HTTP requests to the store (S3A counts some twice, as action_ and object_). */
  static boolean isRequest(String k) {
    return k.equals("action_http_get_request") || k.equals("action_http_head_request") || k.equals("object_list_request")
        || k.equals("object_continue_list_request") || k.equals("object_put_request") || k.equals("object_delete_request")
        || k.equals("object_bulk_delete_request") || k.equals("object_multipart_initiated") || k.equals("object_copy_requests");
  }

  static long requests(Map<String, Long> d) {
    return d.values().stream().mapToLong(Long::longValue).sum();
  }

  static long writes(Map<String, Long> d) {
    return d.getOrDefault("object_put_request", 0L) + d.getOrDefault("object_delete_request", 0L)
        + d.getOrDefault("object_bulk_delete_request", 0L) + d.getOrDefault("object_multipart_initiated", 0L);
  }
}
