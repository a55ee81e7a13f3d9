package io.joblib4j.examples.hdfs;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

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
      SparkConf spark = new SparkConf().setMaster("local[2]").setAppName("joblib4j HDFS demo")
          .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1");
      try (JavaSparkContext sc = new JavaSparkContext(spark)) {
        HdfsPipelineExample.run(sc, location);
      }
    } finally {
      dfs.shutdown();
    }
  }
}
