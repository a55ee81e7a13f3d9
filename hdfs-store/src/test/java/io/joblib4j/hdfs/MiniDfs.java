package io.joblib4j.hdfs;

import io.joblib4j.hdfs.internal.Configurations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * MiniDFSClusters for the tests. Starting one takes 8-20 s, so the contract suites share one per
 * JVM ({@link #shared()}); fault tests that stop DataNodes or the NameNode start their own.
 */
public final class MiniDfs {
  private static MiniDFSCluster shared;

  private MiniDfs() {}

  /** The JVM's shared cluster: one NameNode, one DataNode, replication 1. */
  public static synchronized MiniDFSCluster shared() {
    if (shared == null) {
      shared = start(1, new Configuration());
      MiniDFSCluster c = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(c::shutdown, "minidfs-shutdown"));
    }
    return shared;
  }

  /** A new cluster with {@code dataNodes} DataNodes; the caller shuts it down. */
  public static MiniDFSCluster start(int dataNodes, Configuration conf) {
    try {
      Path base = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "minidfs-");
      Configuration c = new Configuration(conf);
      c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
      c.setInt("dfs.replication", Math.min(dataNodes, c.getInt("dfs.replication", dataNodes)));
      c.setLong("dfs.blocksize", c.getLong("dfs.blocksize", 128L << 20));
      // a restarted DataNode registers at once, and a dead one is noticed within seconds
      c.setInt("dfs.heartbeat.interval", 1);
      c.setInt("dfs.namenode.heartbeat.recheck-interval", 2_000);
      // the DataNodes' own HDFS clients (WebHDFS writes go through them) close files as the store's
      // client does, not after Hadoop's 400 ms: 100 entries published over WebHDFS took 82 s, not 12
      Configurations.applyQuickClose(conf, c);
      // the base folder through the configuration only: Hadoop 3.3's Builder(conf, dir) refuses a
      // configuration that already names one (the minicluster of Spark 3.5's line)
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(c).numDataNodes(dataNodes).build();
      cluster.waitActive();
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a MiniDFSCluster", e);
    }
  }

  /** {@code hdfs://127.0.0.1:port/path}. */
  public static URI uri(MiniDFSCluster cluster, String path) {
    return URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort() + path);
  }

  /** A client configuration for {@code cluster}. */
  public static Configuration clientConf(MiniDFSCluster cluster) {
    return new Configuration(cluster.getConfiguration(0));
  }
}
