package io.joblib4j.hdfs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import io.joblib4j.testing.Captured;
import java.net.URI;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cache another user filled, which this user may read but not write (HDFS permissions). */
class HdfsReadOnlyCacheTest {
  private static final AtomicInteger COMPUTED = new AtomicInteger();
  @TempDir Path localCache;

  public static long cube(int x) {
    COMPUTED.incrementAndGet();
    return (long) x * x * x;
  }

  @Test
  void hitsAreServedAndWhatCannotBeStoredIsWarnedAboutOnceAMinuteNotOnEveryCall() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    URI location = MiniDfs.uri(dfs, "/shared-cache-" + UUID.randomUUID());
    Map<String, Object> options = Map.of("localCacheDir", localCache.toString());
    try (Store owners = HadoopStoreOpener.open(location, MiniDfs.clientConf(dfs), options)) {
      Memory.builder(owners).verbose(0).build().cache(HdfsReadOnlyCacheTest::cube).apply(3);
    }
    // folders are 755 (umask 022): a user other than the owner can read, not write
    UserGroupInformation reader = UserGroupInformation.createRemoteUser("reader-" + UUID.randomUUID());
    Store store = reader.doAs((PrivilegedExceptionAction<Store>) () -> HadoopStoreOpener.open(location, MiniDfs.clientConf(dfs), options));
    try (store) {
      MemoizedFn1<Integer, Long> f = Memory.builder(store).verbose(0).build().cache(HdfsReadOnlyCacheTest::cube);
      COMPUTED.set(0);
      List<String> warnings = Captured.warnings(() -> {
        assertThat(f.apply(3)).isEqualTo(27L);
        for (int i = 4; i < 10; i++) {
          assertThat(f.apply(i)).isEqualTo((long) i * i * i);
        }
      });
      assertThat(COMPUTED).hasValue(6); // the hit was served
      assertThat(warnings).hasSize(1).allMatch(w -> w.contains("Unable to cache") && w.contains("Permission denied"));
    }
  }
}
