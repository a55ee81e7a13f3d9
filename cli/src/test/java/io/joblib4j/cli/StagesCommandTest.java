package io.joblib4j.cli;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.joblib4j.spark.stages.StageCache;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code joblib4j stages ...} on a stage cache written by real StageCache calls on local[2]. */
class StagesCommandTest {
  static SparkSession spark;
  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("joblib4j-cli-tests").config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1").config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  public static Dataset<Row> evens(Dataset<Row> raw) {
    return raw.filter(col("id").mod(2).equalTo(0));
  }

  public static Dataset<Row> odds(Dataset<Row> raw) {
    return raw.filter(col("id").mod(2).equalTo(1));
  }

  @Test
  void stagesAreListedSizedPrunedRemovedAndCleared() {
    String at = dir.resolve("cache").toString();
    StageCache stages = StageCache.at(spark, at);
    Dataset<Row> raw = spark.range(0, 100, 1, 2).toDF();
    stages.cache(StagesCommandTest::evens).apply(raw).count();
    stages.cache(StagesCommandTest::odds).apply(raw).count();
    stages.cache(StagesCommandTest::odds).apply(spark.range(0, 10, 1, 1).toDF()).count();

    Run ls = Run.of("stages", "ls", at);
    assertThat(ls.code()).as(ls.toString()).isZero();
    assertThat(ls.out()).contains("STAGE", "ROWS", "StagesCommandTest.evens-", "StagesCommandTest.odds-");
    JsonNode doc = Run.of("stages", "ls", at, "--json").json();
    assertThat(doc.get("entries")).hasSize(3);
    long rows = 0;
    for (JsonNode e : doc.get("entries")) {
      rows += e.get("rows").asLong();
    }
    assertThat(rows).isEqualTo(50 + 50 + 5);
    JsonNode du = Run.of("stages", "du", at, "--json").json();
    assertThat(du.get("stages")).hasSize(2);
    assertThat(du.get("totalBytes").asLong()).isEqualTo(doc.get("totalBytes").asLong()).isPositive();
    assertThat(Run.of("stages", "ls", at, "StagesCommandTest.odds", "--json").json().get("entries")).hasSize(2);

    Run dry = Run.of("stages", "prune", at, "--max-items", "1", "--dry-run");
    assertThat(dry.err()).as(dry.toString()).contains("would delete 2 entries");
    assertThat(Run.of("stages", "ls", at, "--json").json().get("entries")).hasSize(3);

    String key = doc.get("entries").get(0).get("key").asText();
    assertThat(Run.of("stages", "rm", at, key).code()).isZero();
    assertThat(Run.of("stages", "ls", at, "--json").json().get("entries")).hasSize(2);
    assertThat(Run.of("stages", "rm", at, "NoSuch.stage").code()).isEqualTo(Main.FINDINGS);
    assertThat(Run.of("stages", "prune", at, "--max-items", "1").err()).contains("deleted 1 entries");
    Run clear = Run.of("stages", "clear", at);
    assertThat(clear.err()).as(clear.toString()).contains("deleted 1 stage entries");
    assertThat(Run.of("stages", "ls", at, "--json").json().get("entries")).isEmpty();
  }

  @Test
  void aDryRunNamesExactlyWhatThePruneThenDeletesUnderASizeLimit() {
    String at = dir.resolve("sizes").toString();
    StageCache stages = StageCache.at(spark, at);
    stages.cache(StagesCommandTest::evens).apply(spark.range(0, 10, 1, 1).toDF()).count();
    stages.cache(StagesCommandTest::evens).apply(spark.range(0, 5000, 1, 1).toDF()).count();
    stages.cache(StagesCommandTest::odds).apply(spark.range(0, 100, 1, 1).toDF()).count();
    JsonNode all = Run.of("stages", "ls", at, "--json").json();
    long total = all.get("totalBytes").asLong();
    String limit = String.valueOf(total - 1);

    JsonNode dry = Run.of("stages", "prune", at, "--max-size", limit, "--dry-run", "--json").json();
    JsonNode real = Run.of("stages", "prune", at, "--max-size", limit, "--json").json();

    assertThat(keys(dry.get("deleted"))).isNotEmpty().isEqualTo(keys(real.get("deleted")));
    assertThat(Run.of("stages", "ls", at, "--json").json().get("totalBytes").asLong()).isLessThanOrEqualTo(total - 1);
  }

  @Test
  void maxAgeZeroDeletesEveryStageEntryAsItDoesMemorysEntries() {
    String at = dir.resolve("age").toString();
    StageCache stages = StageCache.at(spark, at);
    stages.cache(StagesCommandTest::evens).apply(spark.range(0, 10, 1, 1).toDF()).count();
    stages.cache(StagesCommandTest::odds).apply(spark.range(0, 10, 1, 1).toDF()).count();

    Run prune = Run.of("stages", "prune", at, "--max-age", "0s");

    assertThat(prune.code()).as(prune.toString()).isZero();
    assertThat(prune.err()).contains("deleted 2 entries");
    assertThat(Run.of("stages", "ls", at, "--json").json().get("entries")).isEmpty();
  }

  private static java.util.List<String> keys(JsonNode entries) {
    java.util.List<String> out = new java.util.ArrayList<>();
    entries.forEach(e -> out.add(e.get("key").asText()));
    return out;
  }
}
