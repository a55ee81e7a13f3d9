package io.joblib4j.spark.stages;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Stage functions of the tests, counting their calls (a hit must not call them). */
public final class Pipelines {
  public static final AtomicInteger CLEAN_CALLS = new AtomicInteger();
  public static final AtomicInteger ENRICH_CALLS = new AtomicInteger();
  public static final AtomicInteger JOIN_CALLS = new AtomicInteger();

  private Pipelines() {}

  /** Keeps the even ids, with a doubled column. */
  public static Dataset<Row> clean(Dataset<Row> raw) {
    CLEAN_CALLS.incrementAndGet();
    return raw.filter(col("id").mod(2).equalTo(0)).withColumn("twice", col("id").multiply(2));
  }

  /** Adds a constant column. */
  public static Dataset<Row> enrich(Dataset<Row> clean) {
    ENRICH_CALLS.incrementAndGet();
    return clean.withColumn("source", lit("enriched"));
  }

  /** Adds a bucket column (id mod 3), for a partitioned result. */
  public static Dataset<Row> bucketed(Dataset<Row> raw) {
    CLEAN_CALLS.incrementAndGet();
    return raw.withColumn("bucket", col("id").mod(3));
  }

  /** Joins two inputs and scales by a plain argument. */
  public static Dataset<Row> join(Dataset<Row> left, Dataset<Row> right, int factor) {
    JOIN_CALLS.incrementAndGet();
    return left.join(right, "id").withColumn("scaled", col("twice").multiply(factor))
        .groupBy("id").agg(sum("scaled").as("scaled"));
  }
}
