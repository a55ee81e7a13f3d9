package io.joblib4j.spark;

import java.io.File;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * SparkConf for local-cluster ITs: executors are separate JVMs started by a standalone Worker
 * inside this JVM. They get Spark's jars through spark.executor.extraClassPath (the fake
 * SPARK_HOME has an empty jars/), and our classes only through setJars — the main jar, the tests
 * jar and engine-api — exactly as an application ships its code, so a class that does not travel
 * fails here as it would on a cluster. Never spark.testing: it would put this JVM's class path on
 * the executors and hide exactly those bugs.
 */
final class ClusterSpark {
  private static JavaSparkContext shared;

  private ClusterSpark() {}

  /**
   * The local-cluster[2,1,1024] context the cluster ITs of this JVM share: starting one costs 10-15
   * s. It stays up until the JVM exits (Spark's shutdown hook stops it), unless {@link
   * #stopShared} is called by a test that needs a cluster configured otherwise.
   */
  static synchronized JavaSparkContext shared() {
    if (shared == null || shared.sc().isStopped()) {
      shared = new JavaSparkContext(conf("joblib4j-cluster-it", 2, 1024));
      shared.parallelize(java.util.List.of(1, 2), 2).count(); // both executors registered
    }
    return shared;
  }

  /** Stops the shared context, for a test that must start a SparkContext of its own. */
  static synchronized void stopShared() {
    if (shared != null) {
      shared.stop();
      shared = null;
    }
  }

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
