package io.joblib4j.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Memory;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.Stores;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopStoresTest {
  @TempDir Path dir;

  public static int twice(int x) {
    return 2 * x;
  }

  @Test
  void memoryFindsTheStoreByItsHdfsScheme() {
    MiniDFSCluster dfs = MiniDfs.shared();
    String location = MiniDfs.uri(dfs, "/by-scheme-" + UUID.randomUUID()).toString();
    Memory memory = Memory.builder(location).verbose(0).storeOption(HadoopStoreOptions.LOCAL_CACHE_DIR, dir.toString()).build();
    MemoizedFn1<Integer, Integer> f = memory.cache(HadoopStoresTest::twice);
    assertThat(f.apply(21)).isEqualTo(42);
    assertThat(f.checkCallInCache(21)).isTrue();
    assertThat(Stores.schemes()).contains("hdfs", "s3a", "abfs", "abfss", "gs", "viewfs", "webhdfs");
  }

  @Test
  void anotherSchemeCanBeServedByRegisteringAProvider() throws Exception {
    Stores.register(HadoopStores.provider("fakeobj2"));
    try {
      // a scheme Hadoop does not know is reported by Hadoop, through the store's error
      assertThatThrownBy(() -> Stores.open("fakeobj2://" + dir.toUri().getPath(), Map.of()))
          .hasMessageContaining("fakeobj2");
    } finally {
      Stores.unregister("fakeobj2");
    }
  }

  @Test
  void unknownOptionsAreRejectedListingTheKnownOnes() {
    assertThatThrownBy(() -> HadoopStores.open(dir.toUri(), new Configuration(), Map.of("localCacheDri", "/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("localCacheDri").hasMessageContaining("localCacheDir").hasMessageContaining("hadoop.");
    assertThatThrownBy(() -> HadoopStores.open(dir.toUri(), new Configuration(), Map.of("commit", "copy")))
        .hasMessageContaining("\"rename\" or \"marker\"");
    assertThatThrownBy(() -> HadoopStores.open(dir.toUri(), new Configuration(), Map.of("publishWait", "soon")))
        .hasMessageContaining("duration");
  }

  @Test
  void hadoopOptionsReachTheStoresFileSystemOnly() throws Exception {
    Configuration mine = new Configuration();
    try (Store s = HadoopStores.open(dir.toUri(), mine, Map.of("hadoop.io.file.buffer.size", "65536"))) {
      assertThat(s.location().getScheme()).isEqualTo("file");
      assertThat(mine.get("io.file.buffer.size")).isNotEqualTo("65536");
      assertThat(mine.get("ipc.client.connect.max.retries")).isEqualTo("10"); // the caller's stays Hadoop's default
    }
  }

  @Test
  void theLocationIsNormalized() throws Exception {
    try (Store s = HadoopStores.open(URI.create(dir.toUri() + "/cache///"), new Configuration())) {
      assertThat(s.location().toString()).endsWith("/cache");
    }
  }
}
