package io.joblib4j.hdfs;

import org.apache.spark.SparkConf;

/**
 * The Spark settings of the ITs that run a driver of {@code local-cluster[2,1,1024]}: two executor
 * JVMs of one core, on loopback, waiting for both before the first job, with the executors' class
 * path and the jars they get from the build ({@code joblib4j.it.executorClasspath}, {@code
 * joblib4j.it.jars}). Shared with stage-cache's ITs through this module's tests jar.
 */
public final class LocalCluster {
  private LocalCluster() {}

  /** The settings, under {@code appName}; a test adds its own. */
  public static SparkConf conf(String appName) {
    return new SparkConf()
        .setMaster("local-cluster[2,1,1024]")
        .setAppName(appName)
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.executor.memory", "512m")
        .set("spark.executor.cores", "1")
        .set("spark.cores.max", "2")
        .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .set("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .set("spark.executor.extraClassPath", System.getProperty("joblib4j.it.executorClasspath"))
        .setJars(System.getProperty("joblib4j.it.jars").split(","));
  }
}
