package io.joblib4j.scala

import java.io.File
import org.apache.spark.sql.SparkSession

/**
 * The notebook's SparkSession on local-cluster: two executor JVMs that see the notebook's cells
 * only through the REPL class server (`spark.repl.class.outputDir`, as spark-shell sets it) and
 * joblib4j only through `spark.jars`, as a notebook's cluster does. Never `spark.testing`: it
 * would put this JVM's class path on the executors and hide exactly the shipping bugs.
 */
object NotebookSpark {
  @volatile private var current: SparkSession = _

  def session: SparkSession = {
    val s = current
    if (s == null) throw new IllegalStateException("NotebookSpark.start(outDir) first")
    s
  }

  def start(replOutDir: File): SparkSession = synchronized {
    if (current == null) {
      current = SparkSession.builder()
        .master("local-cluster[2,1,1024]")
        .appName("joblib4j notebook")
        .config("spark.repl.class.outputDir", replOutDir.getAbsolutePath)
        .config("spark.sql.artifact.isolation.enabled", "false")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.executor.memory", "768m")
        .config("spark.executor.cores", "1")
        .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .config("spark.executor.extraClassPath", required("joblib4j.it.executorClasspath"))
        .config("spark.executorEnv.SPARK_SCALA_VERSION", ReplLine.scalaBinaryVersion)
        .config("spark.jars", required("joblib4j.it.jars").split(File.pathSeparator).mkString(","))
        .getOrCreate()
    }
    current
  }

  def stop(): Unit = synchronized {
    if (current != null) current.stop()
    current = null
  }

  def required(property: String): String = {
    val v = System.getProperty(property)
    if (v == null || v.isBlank) {
      throw new IllegalStateException(s"system property $property is not set: run NotebookIT through Maven" +
        " (mvn -pl scala -am verify), which builds the jars the executors get")
    }
    v
  }
}
