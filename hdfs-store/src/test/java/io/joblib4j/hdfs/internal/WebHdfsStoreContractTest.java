package io.joblib4j.hdfs.internal;

import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Store contract, unchanged, over WebHDFS: a file system this store knows only through {@code
 * FileSystem.rename(src, dst)}, which on HDFS moves a folder <em>into</em> an existing one — the
 * generic renamer must detect that and treat it as a lost race.
 */
class WebHdfsStoreContractTest extends StoreContractTest {
  @TempDir Path localCache;

  @Override
  protected Store newEmptyStore() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    URI uri = URI.create("webhdfs://127.0.0.1:" + dfs.getNameNode().getHttpAddress().getPort() + "/webhdfs-" + UUID.randomUUID());
    return HadoopStoreOpener.open(uri, MiniDfs.clientConf(dfs), Map.of("localCacheDir", localCache.toString()));
  }

  @Override
  protected void leaveDeadWritersTemporary(String entry, Duration age) throws Exception {
    HadoopStore s = (HadoopStore) store;
    org.apache.hadoop.fs.Path temp = new org.apache.hadoop.fs.Path(s.tempArea, Names.RESERVED_PREFIX + "w-dead-" + UUID.randomUUID());
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(temp, "output");
    try (FSDataOutputStream out = s.fs.create(file, false)) {
      out.write("half".getBytes());
    }
    long then = System.currentTimeMillis() - age.toMillis();
    s.fs.setTimes(file, then, -1);
    s.fs.setTimes(temp, then, -1);
  }
}
