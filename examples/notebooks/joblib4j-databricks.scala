// Databricks notebook source
// MAGIC %md
// MAGIC # joblib4j in a Databricks Scala notebook
// MAGIC
// MAGIC A cached feature step, run in parallel on the cluster's executors, then used inside tasks.
// MAGIC Attach joblib4j's one jar for Spark, `joblib4j-spark-4-bundle_2.13-0.1.0-SNAPSHOT.jar` (the core,
// MAGIC the Spark backend, the Hadoop store and the Scala API; the README's "Distribution" section says
// MAGIC how to build it), as a cluster library — only that jar, not the separate joblib4j artifacts — to a
// MAGIC dedicated (single user) cluster: Spark Connect (serverless, shared clusters) offers no
// MAGIC SparkContext to run tasks on. No `@transient` is needed on any `val` below.

// COMMAND ----------

import io.joblib4j.{Memory, Parallel}
import io.joblib4j.scala._

// A folder every executor sees: DBFS through its local mount, or an hdfs:// / s3a:// / abfs:// URI
// (the bundle carries the Hadoop store).
val cacheDir = sys.env.getOrElse("JOBLIB4J_CACHE", "/dbfs/joblib4j/cache")
val memory = new Memory(cacheDir)

// COMMAND ----------

// The expensive step: changing its body invalidates its cached results, re-running this cell does not.
def features(day: Int): Array[Double] = {
  val rnd = new java.util.Random(day)
  Array.fill(200000)(rnd.nextGaussian()).sorted.grouped(20000).map(_.head).toArray
}

val cachedFeatures = memory.cache(features _)

// COMMAND ----------

// One Spark job: the executors compute the days not cached yet and store them for everyone.
val p = Parallel.builder().backend("spark").nJobs(-1).build()
val rows = p.map(cachedFeatures, 1 to 8)
println(s"features cached: ${(1 to 8).count(cachedFeatures.checkCallInCache(_))} of 8")

// COMMAND ----------

// A memoized function inside tasks: each task loads its day's features from the cache.
def score(day: Int): Double = cachedFeatures(day).sum / 10

val scores = p.run((1 to 8).map(delayed(score _)))
println(scores.map(s => f"$s%.3f").mkString(" "))
