package io.joblib4j.hdfs.internal;

import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.Store;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The Store contract, unchanged, over WebHDFS: a file system this store knows only through {@code
 * FileSystem.rename(src, dst)}, which on HDFS moves a folder <em>into</em> an existing one — the
 * generic renamer must detect that and treat it as a lost race. The same cluster as {@link
 * HdfsStoreContractTest}, reached over HTTP; dead writers are left the same way.
 */
class WebHdfsStoreContractTest extends HdfsStoreContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    URI uri = URI.create("webhdfs://127.0.0.1:" + dfs.getNameNode().getHttpAddress().getPort() + "/webhdfs-" + UUID.randomUUID());
    return HadoopStoreOpener.open(uri, MiniDfs.clientConf(dfs), Map.of("localCacheDir", localCache.toString()));
  }
}
