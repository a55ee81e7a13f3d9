package io.joblib4j.spark;

import java.io.File;
import org.apache.spark.SparkConf;

/**
 * SparkConf for local-cluster ITs: executors are separate JVMs started by a standalone Worker
 * inside this JVM. They get Spark's jars through spark.executor.extraClassPath (the fake
 * SPARK_HOME has an empty jars/), and our classes only through setJars — the main jar, the tests
 * jar and engine-api — exactly as an application ships its code, so a class that does not travel
 * fails here as it would on a cluster. Never spark.testing: it would put this JVM's class path on
 * the executors and hide exactly those bugs.
 */
final class ClusterSpark {
  private ClusterSpark() {}

  static SparkConf conf(String appName, int executors, int memoryMb) {
    String sparkClasspath = required("joblib4j.it.sparkClasspath");
    String jars = required("joblib4j.it.jars");
    return new SparkConf()
        .setMaster("local-cluster[" + executors + ",1," + memoryMb + "]")
        .setAppName(appName)
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.executor.memory", (memoryMb * 3 / 4) + "m")
        .set("spark.executor.cores", "1")
        .set("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .set("spark.executor.extraClassPath", sparkClasspath)
        .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .setJars(jars.split(File.pathSeparator));
  }

  private static String required(String property) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("system property " + property + " is not set: run the *IT tests"
          + " through Maven (mvn -pl spark-backend -am verify), which builds the jars they ship");
    }
    return v;
  }
}
