package io.joblib4j.examples.hdfs;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.SparkSession;

/**
 * Runs {@link HdfsPipelineExample} against a MiniDFSCluster it starts, with Spark in local mode:
 * the HDFS example without a cluster ({@code mvn -B -q -pl examples -am -Phdfs-demo verify -DskipTests}).
 */
public final class HdfsPipelineDemo {
  private HdfsPipelineDemo() {}

  public static void main(String[] args) throws Exception {
    Path base = Files.createTempDirectory("joblib4j-minidfs-");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(base.toString())).numDataNodes(1).build();
    try {
      dfs.waitActive();
      String location = "hdfs://127.0.0.1:" + dfs.getNameNodePort() + "/joblib4j-demo";
      System.out.println("MiniDFSCluster up; store at " + location);
      SparkSession spark = SparkSession.builder().master("local[2]").appName("joblib4j HDFS demo")
          .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
      try {
        HdfsPipelineExample.run(location);
        HdfsPipelineExample.run(location); // a second job: every step and chunk is already there
      } finally {
        spark.stop();
      }
    } finally {
      dfs.shutdown();
    }
  }
}
