package io.joblib4j.spark.stages;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** A stage that commits to its own input Delta table while it runs (as another writer could). */
public final class DeltaStages {
  /** The table the stage appends to. */
  public static volatile String TABLE;

  private DeltaStages() {}

  /** Appends ids 100..109 to {@link #TABLE}, then cleans its input. */
  public static Dataset<Row> appendThenClean(Dataset<Row> raw) {
    raw.sparkSession().range(100, 110, 1, 1).write().format("delta").mode("append").save(TABLE);
    return Pipelines.clean(raw);
  }
}
