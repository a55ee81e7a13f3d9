package io.joblib4j.spark.stages.internal;

import io.joblib4j.spark.stages.Stage1;
import io.joblib4j.spark.stages.StageCache;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A second driver JVM for the cross-JVM tests: runs {@link ChildStages#clean} on {@code args[1]}
 * with a stage cache at {@code args[0]}, on local[2], and prints {@code RESULT calls=<n> rows=<n>
 * sum=<n>}; further pairs of arguments (cache, input) run the same way in the same JVM, one line
 * each, {@code calls} counting that pair's calls only (one Spark start serves them all). {@code -Dstage.haltAt=afterWrite|afterPublish} kills the JVM at that point of the miss
 * (as a killed driver dies: no finally block runs).
 */
public final class StageChild {
  private StageChild() {}

  public static void main(String[] args) {
    String haltAt = System.getProperty("stage.haltAt", "");
    if (haltAt.equals("afterWrite")) {
      StageRunner.afterWrite = () -> Runtime.getRuntime().halt(3);
    } else if (haltAt.equals("afterPublish")) {
      StageRunner.afterPublish = () -> Runtime.getRuntime().halt(3);
    }
    SparkSession spark = SparkSession.builder().master("local[2]").appName("stage-child")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    for (int i = 0; i + 1 < args.length; i += 2) {
      int callsBefore = ChildStages.CALLS.get();
      StageCache stages = StageCache.at(spark, args[i]);
      Stage1<Dataset<Row>> clean = stages.cache(ChildStages::clean);
      Dataset<Row> out = clean.apply(spark.read().parquet(args[i + 1]));
      long sum = out.agg(org.apache.spark.sql.functions.sum("twice")).first().getLong(0);
      int calls = ChildStages.CALLS.get() - callsBefore;
      System.out.println("RESULT calls=" + calls + " rows=" + out.count() + " sum=" + sum);
    }
    spark.stop();
  }
}
