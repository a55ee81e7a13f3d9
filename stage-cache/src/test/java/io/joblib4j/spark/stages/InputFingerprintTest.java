package io.joblib4j.spark.stages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an input's fingerprint sees: a file's modification time alone, and a JDBC table it cannot see into. */
class InputFingerprintTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private StageCache stages;

  @BeforeEach
  void setUp() {
    stages = StageCache.at(spark, dir.resolve("cache").toString());
    Pipelines.CLEAN_CALLS.set(0);
  }

  @Test
  void anInputFileRewrittenWithTheSameLengthAndOnlyANewModificationTimeGivesANewEntry() throws IOException {
    String input = dir.resolve("raw").toString();
    spark.range(0, 100, 1, 1).write().parquet(input);
    Path part;
    try (Stream<Path> s = Files.list(Path.of(input))) {
      part = s.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
    }
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(spark.read().parquet(input)).count();
    clean.apply(spark.read().parquet(input)).count();
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    long length = Files.size(part);
    // the same bytes written again: only the modification time says so
    Files.write(part, Files.readAllBytes(part));
    Files.setLastModifiedTime(part, FileTime.fromMillis(Files.getLastModifiedTime(part).toMillis() + 10_000));
    assertThat(Files.size(part)).isEqualTo(length);
    assertThat(clean.apply(spark.read().parquet(input)).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(clean.entries()).hasSize(2);
  }

  @Test
  void aJdbcTableIsRefusedNamingInputKeyWhichThenStandsForIt() throws SQLException {
    String url = "jdbc:h2:mem:stages;DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE events (id BIGINT)");
      st.execute("INSERT INTO events SELECT X FROM SYSTEM_RANGE(0, 9)");
    }
    Dataset<Row> events = spark.read().jdbc(url, "events", new Properties());
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThatThrownBy(() -> clean.apply(events))
        .isInstanceOf(StageKeyException.class)
        .hasMessageContaining("arg0 reads a JDBC table")
        .hasMessageContaining("no version the stage cache can read")
        .hasMessageContaining(".inputKey(");
    assertThat(Pipelines.CLEAN_CALLS).hasValue(0);
    assertThat(clean.inputKey("events@export-1").apply(events).count()).isEqualTo(5);
    assertThat(clean.inputKey("events@export-1").apply(events).count()).isEqualTo(5);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
  }
}
