package io.joblib4j.examples.stages;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.udf;

import io.joblib4j.spark.stages.Stage1;
import io.joblib4j.spark.stages.Stage2;
import io.joblib4j.spark.stages.StageCache;
import io.joblib4j.spark.stages.StageEntry;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/**
 * A three-stage pipeline with every stage cached on HDFS: clean the raw events, enrich them with a
 * UDF, summarize per country. Run it twice: the first run computes and stores each stage, the second
 * reads each one back without calling it (and a changed stage, UDF or input file would recompute
 * that stage and those after it, nothing else).
 *
 * <pre>
 * spark-submit --class io.joblib4j.examples.stages.StagePipelineExample \
 *   --jars joblib4j-spark-4-bundle_2.13-0.1.0-SNAPSHOT.jar joblib4j-examples-0.1.0-SNAPSHOT.jar \
 *   hdfs://namenode:8020/user/me/pipeline-cache hdfs://namenode:8020/user/me/events
 * </pre>
 */
public final class StagePipelineExample {
  /** How many stage functions ran in this JVM (zero on a run that reads everything). */
  public static final AtomicInteger COMPUTED = new AtomicInteger();

  private StagePipelineExample() {}

  /** Stage 1: events with a user and a positive amount. */
  public static Dataset<Row> clean(Dataset<Row> raw) {
    COMPUTED.incrementAndGet();
    return raw.filter(col("user").isNotNull().and(col("amount").gt(0)));
  }

  /** Stage 2: each event with its amount in cents and a size band, computed by a UDF. */
  public static Dataset<Row> enrich(Dataset<Row> events, double largeAbove) {
    COMPUTED.incrementAndGet();
    UDF1<Double, String> band = amount -> amount > largeAbove ? "large" : "small";
    return events.withColumn("cents", col("amount").multiply(100).cast("long"))
        .withColumn("band", udf(band, DataTypes.StringType).apply(col("amount")));
  }

  /** Stage 3: per country and band, the events and their average amount. */
  public static Dataset<Row> summarize(Dataset<Row> enriched) {
    COMPUTED.incrementAndGet();
    return enriched.groupBy("country", "band").agg(count("*").as("events"), avg("amount").as("average"));
  }

  /** Runs the pipeline over the Parquet events at {@code input} with a stage cache at {@code location}. */
  public static Dataset<Row> run(SparkSession spark, String location, String input) {
    StageCache stages = StageCache.at(spark, location);
    Stage1<Dataset<Row>> cleaned = stages.cache(StagePipelineExample::clean);
    Stage2<Dataset<Row>, Double> enriched = stages.cache(StagePipelineExample::enrich);
    Stage1<Dataset<Row>> summary = stages.cache(StagePipelineExample::summarize);
    return summary.apply(enriched.apply(cleaned.apply(spark.read().parquet(input)), 50.0));
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: StagePipelineExample <cache location> <events folder (Parquet)>");
      System.exit(2);
    }
    SparkSession spark = SparkSession.builder().appName("joblib4j stage pipeline").getOrCreate();
    Dataset<Row> summary = run(spark, args[0], args[1]);
    summary.orderBy("country", "band").show();
    for (StageEntry e : StageCache.at(spark, args[0]).entries()) {
      System.out.println(e.name() + " " + e.key() + ": " + e.rows() + " rows, " + e.bytes() + " bytes");
    }
    System.out.println("joblib4j stages: " + COMPUTED.get() + " of 3 stages computed, the others read back");
    spark.stop();
  }
}
