package io.joblib4j.hdfs.internal;

import io.joblib4j.MemoryContractTest;
import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.io.TempDir;

/** Memory's contract, unchanged, over HDFS. */
class HdfsMemoryContractTest extends MemoryContractTest {
  @TempDir Path localCache;

  @Override
  protected Store newEmptyStore() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    return HadoopStoreOpener.open(MiniDfs.uri(dfs, "/memory-" + UUID.randomUUID()), MiniDfs.clientConf(dfs),
        Map.of("localCacheDir", localCache.toString()));
  }
}
