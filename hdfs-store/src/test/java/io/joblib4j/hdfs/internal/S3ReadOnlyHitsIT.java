package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.hdfs.s3.S3Server;
import io.joblib4j.spi.Store;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hit never writes. S3Proxy has no IAM, so "read-only credentials" is a second S3Proxy over the
 * same objects that refuses every write (its read-only blob store): a Memory there gets every hit,
 * small (inline in the manifest) and large (in objects of their own), and its hits make no write
 * request by S3A's own count.
 */
class S3ReadOnlyHitsIT {
  static final AtomicInteger CALLS = new AtomicInteger();
  @TempDir Path dir;

  static long[] small(int x) {
    CALLS.incrementAndGet();
    return new long[] {x, (long) x * x};
  }

  static long[] large(int x) {
    CALLS.incrementAndGet();
    long[] a = new long[64 << 10]; // 512 KiB: past what a manifest holds inline
    Arrays.fill(a, x);
    return a;
  }

  @Test
  void aMemoryThatMayNotWriteGetsEveryHitAndItsHitsWriteNothing() throws Exception {
    S3Server s3 = S3Server.shared();
    URI location = s3.newLocation("read-only");
    try (Store store = HadoopStoreOpener.open(location, s3.conf(true), Map.of("localCacheDir", dir.resolve("w").toString()))) {
      Memory writer = Memory.builder(store).verbose(0).build();
      for (int i = 0; i < 3; i++) {
        writer.cache(S3ReadOnlyHitsIT::small).apply(i);
        writer.cache(S3ReadOnlyHitsIT::large).apply(i);
      }
    }
    assertThat(CALLS.get()).isEqualTo(6);

    try (S3Server readOnly = s3.readOnlyView()) {
      Configuration conf = readOnly.conf(true);
      // the refused PUT, refused once: S3A would otherwise retry it for minutes (hadoop-aws 3.3's SDK v1
      // client tries 20 times, each with S3A's own retries around it)
      Configuration probe = new Configuration(conf);
      probe.setInt("fs.s3a.attempts.maximum", 1);
      probe.setInt("fs.s3a.retry.limit", 0);
      probe.setInt("fs.s3a.retry.throttle.limit", 0);
      try (FileSystem fs = FileSystem.newInstance(location, probe)) {
        assertThatThrownBy(() -> {
          try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(location + "/probe"), true)) {
            o.write(1);
          }
        }).as("the read-only server refuses a PUT").isInstanceOf(java.io.IOException.class);
        assertThat(fs.exists(new org.apache.hadoop.fs.Path(location + "/probe"))).isFalse();
      }
      try (Store store = HadoopStoreOpener.open(location, conf, Map.of("localCacheDir", dir.resolve("r").toString()))) {
        Memory reader = Memory.builder(store).verbose(0).build();
        MemoizedFn1<Integer, long[]> smallFn = reader.cache(S3ReadOnlyHitsIT::small);
        MemoizedFn1<Integer, long[]> largeFn = reader.cache(S3ReadOnlyHitsIT::large);
        smallFn.apply(0); // the function's folder, checked once per JVM
        largeFn.apply(0);
        Map<String, Long> before = S3RequestsIT.counters(store);
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < 3; i++) {
            assertThat(smallFn.apply(i)).containsExactly(i, (long) i * i);
            long[] big = largeFn.apply(i);
            assertThat(big).hasSize(64 << 10);
            assertThat(big[big.length - 1]).isEqualTo(i);
          }
        }
        Map<String, Long> hits = S3RequestsIT.delta(before, S3RequestsIT.counters(store));
        assertThat(CALLS.get()).as("every call a hit, none computed again").isEqualTo(6);
        assertThat(S3RequestsIT.writes(hits)).as("write requests of 12 hits: " + hits).isZero();
        assertThat(hits).as("no copy either").doesNotContainKey("object_copy_requests");
      }
    }
  }
}
