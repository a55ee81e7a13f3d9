package io.joblib4j.hdfs.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.GlobalStorageStatistics;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.hdfs.DFSOpsCountStatistics;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Store contract, unchanged, on HDFS (rename mode). */
class HdfsStoreContractTest extends StoreContractTest {
  @TempDir Path localCache;

  @Override
  protected Store newEmptyStore() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    return HadoopStoreOpener.open(MiniDfs.uri(dfs, "/contract-" + UUID.randomUUID()), MiniDfs.clientConf(dfs),
        Map.of("localCacheDir", localCache.toString()));
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

  @Test
  void publishingAndReplacingDeleteNothingOnTheNameNodeOnceTheRenameSucceeded() throws Exception {
    HadoopStore s = (HadoopStore) store;
    long before = deletes();
    assertThat(store.publish("f/k", List.of(EntryFile.of("output", "v".getBytes(UTF_8))))).isEqualTo(Store.Publication.PUBLISHED);
    store.replace("f/function.json", "{}".getBytes(UTF_8));
    store.replace("f/function.json", "{\"v\":2}".getBytes(UTF_8));
    // a delete of the temporary that was just renamed away is a wasted NameNode call (denied, in
    // audit logs, where the user may not delete); over WebHDFS, which cannot rename over a file, the
    // second replace deletes the old file first
    assertThat(deletes() - before).isEqualTo(s.fs instanceof DistributedFileSystem ? 0 : 1);
    assertThat(read(store, "f/function.json")).isEqualTo("{\"v\":2}");
    assertThat(s.fs.listStatus(s.tempArea)).isEmpty();
  }

  /** The deletes this JVM's HDFS clients sent (the statistics are shared by every client in the JVM). */
  private static long deletes() {
    StorageStatistics dfs = GlobalStorageStatistics.INSTANCE.get(DFSOpsCountStatistics.NAME);
    Long n = dfs == null ? null : dfs.getLong(DFSOpsCountStatistics.OpType.DELETE.getSymbol());
    return n == null ? 0 : n;
  }
}
