package io.joblib4j.spark;

import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
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
      awaitExecutors(shared.sc(), 2);
    }
    return shared;
  }

  /**
   * Waits until {@code executors} executors' block managers have registered with the driver: what
   * the spark backend counts for {@code nJobs(-1)}. Not a first job: its tasks can all run on the
   * executor that came first, and on a loaded machine the other's block manager registered after it
   * (SparkClusterIT then saw 1 worker, not 2).
   */
  static void awaitExecutors(SparkContext sc, int executors) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (sc.getExecutorMemoryStatus().size() < executors + 1) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("local-cluster: " + (sc.getExecutorMemoryStatus().size() - 1) + " of "
            + executors + " executors registered after 3 minutes");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for executors", e);
      }
    }
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
