package io.joblib4j.spark.stages;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.commons.io.FileUtils;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta tables as stage inputs, on real Delta tables (delta-spark on the test class path only). */
class DeltaInputTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private String table;
  private StageCache stages;

  @BeforeEach
  void setUp() {
    table = dir.resolve("events").toString();
    spark.range(0, 10, 1, 2).write().format("delta").save(table); // version 0: ids 0..9
    stages = StageCache.at(spark, dir.resolve("cache").toString());
    Pipelines.CLEAN_CALLS.set(0);
    DeltaStages.TABLE = table;
  }

  private Dataset<Row> latest() {
    return spark.read().format("delta").load(table);
  }

  private Dataset<Row> at(long version) {
    return spark.read().format("delta").option("versionAsOf", version).load(table);
  }

  private void append(long from, long to) {
    spark.range(from, to, 1, 1).write().format("delta").mode("append").save(table);
  }

  @Test
  void anUnchangedTableHitsAndEachNewCommitGivesANewEntry() {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThat(clean.apply(latest()).count()).isEqualTo(5);
    assertThat(clean.apply(latest()).count()).isEqualTo(5);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);

    append(10, 20); // version 1
    assertThat(clean.apply(latest()).count()).isEqualTo(10);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    spark.range(0, 4).write().format("delta").mode("overwrite").save(table); // version 2: same files' folder, 4 rows
    assertThat(clean.apply(latest()).count()).isEqualTo(2);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(3);
    assertThat(clean.apply(latest()).count()).isEqualTo(2);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(3);
    assertThat(clean.entries()).hasSize(3);
    assertThat(clean.entries().get(0).inputs()).anyMatch(i -> i.contains("Delta table") && i.contains("at version 2"));
    assertThat(clean.explain(latest()).toString()).contains("is stored");
  }

  @Test
  void timeTravelIsKeyedByTheVersionItReads() {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    append(10, 20); // version 1
    assertThat(clean.apply(at(0)).count()).isEqualTo(5);
    assertThat(clean.apply(latest()).count()).isEqualTo(10);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    append(20, 30); // version 2
    assertThat(clean.apply(at(0)).count()).isEqualTo(5); // still version 0's entry
    assertThat(clean.apply(at(1)).count()).isEqualTo(10); // the same data as the plain read at version 1
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(clean.apply(latest()).count()).isEqualTo(15);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(3);
  }

  @Test
  void aComputedStageReadsItsDeltaInputAtTheKeyedVersionEvenIfTheTableMovesOn() {
    Stage1<Dataset<Row>> stage = stages.cache(DeltaStages::appendThenClean);
    Dataset<Row> v0 = latest();
    // the stage commits version 1 before its result is written: a plain Delta read would now scan it
    Dataset<Row> result = stage.apply(v0);
    assertThat(result.count()).isEqualTo(5);
    assertThat(result.agg(org.apache.spark.sql.functions.max("id")).first().getLong(0)).isEqualTo(8);
    assertThat(stage.entries().get(0).inputs()).anyMatch(i -> i.contains("at version 0"));
    assertThat(stage.apply(v0).count()).isEqualTo(5); // the same Dataset, keyed as before: a hit
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(stage.apply(latest()).count()).isEqualTo(10); // version 1: ids 0..9 and 100..109
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void aTableCreatedAgainInTheSameFolderIsAnotherTable() throws IOException {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(latest()).count();
    FileUtils.deleteDirectory(dir.resolve("events").toFile());
    spark.range(100, 110, 1, 2).write().format("delta").save(table); // version 0 again, another table id
    Dataset<Row> again = clean.apply(latest());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(again.filter(col("id").geq(100)).count()).isEqualTo(5);
  }

  @Test
  void aDeltaReadWithNoVersionToKeyIsRefusedNamingInputKey() {
    spark.sql("ALTER TABLE delta.`" + table + "` SET TBLPROPERTIES (delta.enableChangeDataFeed = true)");
    append(10, 20);
    Dataset<Row> changes = spark.read().format("delta").option("readChangeFeed", "true")
        .option("startingVersion", 2).load(table);
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThatThrownBy(() -> clean.apply(changes))
        .isInstanceOf(StageKeyException.class)
        .hasMessageContaining("Delta")
        .hasMessageContaining("change data feed")
        .hasMessageContaining(".inputKey(");
    assertThat(Pipelines.CLEAN_CALLS).hasValue(0);
    assertThat(clean.inputKey("changes-from-2").apply(changes).select("id").count()).isEqualTo(5);
  }
}
