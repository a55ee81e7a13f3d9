package io.joblib4j.yarn;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

/**
 * A MiniDFSCluster (one DataNode) and a MiniYARNCluster (one NodeManager) in this JVM, set up as
 * Spark's own YARN suite sets its cluster up, and the client configuration spark-submit reads
 * ({@link #confDir}). Started once per test class: together they take 6-12 s to start.
 */
final class YarnCluster implements AutoCloseable {
  /** The NodeManager's memory: an application master and two executors of 512 MB (+384 MB overhead each). */
  private static final int NODE_MEMORY_MB = 4096;

  private final MiniDFSCluster dfs;
  private final MiniYARNCluster yarn;
  private final Path confDir;

  private YarnCluster(MiniDFSCluster dfs, MiniYARNCluster yarn, Path confDir) {
    this.dfs = dfs;
    this.yarn = yarn;
    this.confDir = confDir;
  }

  static YarnCluster start(Path work) throws Exception {
    Configuration dfsConf = new Configuration();
    dfsConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(dfsConf).numDataNodes(1).build();
    MiniYARNCluster yarn = null;
    try {
      dfs.waitActive();
      YarnConfiguration conf = new YarnConfiguration();
      conf.set("fs.defaultFS", dfs.getURI().toString());
      settings(conf);
      yarn = new MiniYARNCluster("joblib4j-yarn-it", 1, 1, 1);
      yarn.init(conf);
      yarn.start();
      awaitResourceManagerAddress(yarn, Duration.ofMinutes(1));
      if (!yarn.waitForNodeManagersToConnect(Duration.ofMinutes(1).toMillis())) {
        throw new IllegalStateException("the NodeManager did not register with the ResourceManager in a minute");
      }
      // Spark's staging folder goes under the submitting user's home
      try (FileSystem fs = FileSystem.newInstance(dfs.getURI(), conf)) {
        fs.mkdirs(new org.apache.hadoop.fs.Path("/user/" + System.getProperty("user.name")));
      }
      Path confDir = writeClientConf(yarn.getConfig(), work.resolve("hadoop-conf"));
      return new YarnCluster(dfs, yarn, confDir);
    } catch (Exception e) {
      if (yarn != null) {
        yarn.stop();
      }
      dfs.shutdown();
      throw e;
    }
  }

  /** What the minicluster needs to run Spark on a small, busy machine (yarn-spike.md). */
  private static void settings(YarnConfiguration conf) {
    // the minicluster jar has no capacity-scheduler.xml: one queue, as Spark's suite defines it
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.setInt("yarn.scheduler.capacity.root.default.capacity", 100);
    conf.setInt("yarn.scheduler.capacity.root.default.maximum-capacity", 100);
    conf.setFloat("yarn.scheduler.capacity.root.default.user-limit-factor", 1);
    conf.set("yarn.scheduler.capacity.root.default.acl_submit_applications", "*");
    conf.set("yarn.scheduler.capacity.root.default.acl_administer_queue", "*");
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.5f);
    // the JVMs reserve more virtual memory than YARN would allow them; the machine is shared
    conf.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    conf.setBoolean("yarn.nodemanager.pmem-check-enabled", false);
    // a nearly full disk must not take the only NodeManager out of service
    conf.setFloat("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 100f);
    conf.setInt("yarn.scheduler.minimum-allocation-mb", 256);
    conf.set("yarn.resourcemanager.hostname", "localhost");
    // MiniYARNCluster sets the NodeManager's memory from this key, not yarn.nodemanager.resource.memory-mb
    conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", NODE_MEMORY_MB);
  }

  /** MiniYARNCluster's start may return before the ResourceManager has put its bound port into the configuration. */
  private static void awaitResourceManagerAddress(MiniYARNCluster yarn, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (yarn.getConfig().get(YarnConfiguration.RM_ADDRESS, ":0").endsWith(":0")) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the ResourceManager has no address after " + timeout);
      }
      Thread.sleep(100); // polling the configuration: the minicluster has no event for this
    }
  }

  /**
   * The running clusters' configuration as core-site.xml and yarn-site.xml, for spark-submit's
   * HADOOP_CONF_DIR. MiniDFSCluster's test-only rack mapping is reset: Spark's driver would look
   * for its class (StaticMapping), which is in the minicluster jar only.
   */
  private static Path writeClientConf(Configuration running, Path dir) throws IOException {
    Configuration conf = new Configuration(running);
    conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.ScriptBasedMapping");
    Files.createDirectories(dir);
    for (String file : new String[] {"core-site.xml", "yarn-site.xml"}) {
      try (OutputStream out = Files.newOutputStream(dir.resolve(file))) {
        conf.writeXml(out);
      }
    }
    return dir;
  }

  /** The folder with the client configuration (HADOOP_CONF_DIR). */
  Path confDir() {
    return confDir;
  }

  /** The running clusters' configuration, for YarnClient and HDFS clients in this JVM. */
  Configuration conf() {
    return new Configuration(yarn.getConfig());
  }

  /** The NameNode's URI, {@code hdfs://localhost:PORT}. */
  String hdfs() {
    return dfs.getURI().toString();
  }

  @Override
  public void close() {
    try {
      yarn.stop();
    } finally {
      dfs.shutdown();
    }
  }
}
