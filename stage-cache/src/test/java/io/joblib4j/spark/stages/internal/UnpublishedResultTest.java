package io.joblib4j.spark.stages.internal;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.fn.Fn1;
import io.joblib4j.spark.stages.Pipelines;
import io.joblib4j.spark.stages.TestSpark;
import io.joblib4j.spi.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A result whose data is written but whose record cannot be published (another writer's claim on an
 * object store that outlives the publish wait, a store that refuses the write) is returned uncached:
 * the pipeline goes on, and nothing is stored.
 */
class UnpublishedResultTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();

  @Test
  void aRecordThatCannotBePublishedLeavesTheResultUncachedNotTheCallFailed() throws IOException {
    String input = dir.resolve("raw").toString();
    spark.range(0, 100, 1, 2).write().parquet(input);
    CountingStore store = new CountingStore(Stores.open(dir.resolve("cache").toString(), Map.of()));
    store.failPublishWith(new IOException("the entry is being written by another writer (it holds the claim)"));
    StageRunner runner = new StageRunner(spark, store, new StageSettings("parquet", null, 0, 0, null,
        Duration.ofDays(1), Clock.systemUTC()));
    StageSpec clean = StageSpec.of((Fn1<Dataset<Row>, Dataset<Row>>) Pipelines::clean, 1);
    Pipelines.CLEAN_CALLS.set(0);

    Dataset<Row> out = runner.call(clean, new Object[] {spark.read().parquet(input)});
    assertThat(out.count()).isEqualTo(50);
    assertThat(out.filter(col("twice").notEqual(col("id").multiply(2))).count()).isZero();
    assertThat(runner.catalog().list()).isEmpty();

    store.failPublishWith(null);
    runner.call(clean, new Object[] {spark.read().parquet(input)}).count();
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2); // nothing was stored the first time
    runner.call(clean, new Object[] {spark.read().parquet(input)}).count();
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }
}
