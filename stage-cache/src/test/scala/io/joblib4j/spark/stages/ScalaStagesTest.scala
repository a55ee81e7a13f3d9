package io.joblib4j.spark.stages

import io.joblib4j.scala._
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.functions.col
import org.junit.jupiter.api.Assertions.{assertEquals, assertTrue}
import org.junit.jupiter.api.Test

/** The pipeline of the Scala test: a `def` cached through its method value. */
object ScalaPipeline {
  @volatile var calls = 0

  def cleanEvents(raw: DataFrame): DataFrame = {
    calls += 1
    raw.filter(col("id") % 3 === 0)
  }

  def scaled(events: DataFrame, factor: Int): DataFrame = events.withColumn("scaled", col("id") * factor)
}

/** `stages.cache(cleanEvents _)` with `import io.joblib4j.scala._`, called as `clean(raw)`. */
class ScalaStagesTest {
  private val spark = SparkSession.builder().master("local[2]").config("spark.ui.enabled", "false")
    .config("spark.driver.host", "127.0.0.1").getOrCreate()

  @Test
  def aScalaMethodValueIsACachedStageAndASecondCallReadsIt(): Unit = {
    val dir = java.nio.file.Files.createTempDirectory("scala-stages")
    try {
      val input = dir.resolve("raw").toString
      spark.range(0, 30).write.parquet(input)
      val stages = StageCache.at(spark, dir.resolve("cache").toString)
      ScalaPipeline.calls = 0

      val clean = stages.cache(ScalaPipeline.cleanEvents _)
      val first = clean(spark.read.parquet(input))
      val again = stages.cache(ScalaPipeline.cleanEvents _)(spark.read.parquet(input))
      assertEquals(1, ScalaPipeline.calls)
      assertEquals(10L, first.count())
      assertEquals(10L, again.count())
      assertEquals("ScalaPipeline.cleanEvents", stages.entries().get(0).name())

      val scaled = stages.cache(ScalaPipeline.scaled _)
      assertEquals(2L * (0 until 30 by 3).sum, scaled(first, 2).agg(org.apache.spark.sql.functions.sum("scaled"))
        .first().getLong(0))
      val explained = scaled.explain(first, 3).toString
      assertTrue(explained.contains("arg1: now 3"), explained)
    } finally {
      org.apache.commons.io.FileUtils.deleteQuietly(dir.toFile)
    }
  }
}
