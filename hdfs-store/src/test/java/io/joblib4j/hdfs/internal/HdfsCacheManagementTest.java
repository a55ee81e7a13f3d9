package io.joblib4j.hdfs.internal;

import io.joblib4j.CacheManagementContractTest;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.io.TempDir;

/** Listing, stats, explain, prune, verify and limits, unchanged, over HDFS (MiniDFSCluster). */
class HdfsCacheManagementTest extends CacheManagementContractTest {
  @TempDir Path localCache;

  @Override
  protected Store newEmptyStore() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    return HadoopStoreOpener.open(MiniDfs.uri(dfs, "/manage-" + UUID.randomUUID()), MiniDfs.clientConf(dfs),
        Map.of("localCacheDir", localCache.toString()));
  }

  @Override
  protected void plantAbandonedTemporary(Store store) throws Exception {
    HadoopStore s = (HadoopStore) store;
    org.apache.hadoop.fs.Path temp = new org.apache.hadoop.fs.Path(s.tempArea, Names.RESERVED_PREFIX + "w-dead-" + UUID.randomUUID());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(temp, "output.jl4j");
    try (FSDataOutputStream out = s.fs.create(file, false)) {
      out.write(new byte[100]);
    }
    long then = System.currentTimeMillis() - 2 * 3600_000L;
    s.fs.setTimes(file, then, -1);
    s.fs.setTimes(temp, then, -1);
  }
}
