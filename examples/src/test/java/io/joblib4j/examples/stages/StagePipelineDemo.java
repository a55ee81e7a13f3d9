package io.joblib4j.examples.stages;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Runs {@link StagePipelineExample} twice on a MiniDFSCluster it starts, with Spark on local[2]
 * ({@code mvn -B -q -pl examples -am -Pstages-demo verify -DskipTests}): the first run computes the
 * three stages, the second reads all three; the demo fails if it computed any.
 */
public final class StagePipelineDemo {
  private StagePipelineDemo() {}

  public static void main(String[] args) throws Exception {
    Path base = Files.createTempDirectory("joblib4j-minidfs-");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, new File(base.toString())).numDataNodes(1).build();
    try {
      dfs.waitActive();
      String root = "hdfs://127.0.0.1:" + dfs.getNameNodePort();
      SparkSession spark = SparkSession.builder().master("local[2]").appName("joblib4j stages demo")
          .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
      try {
        String events = root + "/demo/events";
        StructType schema = new StructType().add("user", "string").add("country", "string").add("amount", "double");
        List<Row> rows = List.of(RowFactory.create("ada", "fr", 12.5), RowFactory.create("bob", "de", 80.0),
            RowFactory.create(null, "fr", 3.0), RowFactory.create("cy", "fr", 64.0), RowFactory.create("di", "de", -1.0));
        spark.createDataFrame(rows, schema).write().parquet(events);
        String location = root + "/demo/pipeline-cache";
        for (int run = 1; run <= 2; run++) {
          StagePipelineExample.COMPUTED.set(0);
          List<Row> summary = StagePipelineExample.run(spark, location, events).orderBy("country", "band").collectAsList();
          System.out.println("run " + run + ": " + StagePipelineExample.COMPUTED.get() + " of 3 stages computed; " + summary);
          if (run == 2 && StagePipelineExample.COMPUTED.get() != 0) {
            throw new AssertionError("the second run computed " + StagePipelineExample.COMPUTED.get() + " stages");
          }
        }
        System.out.println("joblib4j stages demo: the second run read every stage from " + location);
      } finally {
        spark.stop();
      }
    } finally {
      dfs.shutdown();
      org.apache.commons.io.FileUtils.deleteQuietly(base.toFile());
    }
  }
}
