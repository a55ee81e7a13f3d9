package io.joblib4j.spark.stages;

import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage's inputs are keyed by what storage holds when the stage is called, not by the listing a
 * Dataset (or the session's table cache) made earlier: two stale hits found from outside.
 */
class StageInputsTest {
  /** The even ids of 0..199: 0 + 2 + ... + 198. */
  private static final long OLD_SUM = 9_900;
  /** The even ids of 1000..1199. */
  private static final long NEW_SUM = 109_900;
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();

  @BeforeEach
  void setUp() {
    Pipelines.CLEAN_CALLS.set(0);
  }

  private static long sumOfIds(Dataset<Row> ds) {
    return ds.agg(sum("id")).first().getLong(0);
  }

  @Test
  void aFileRewrittenWithOtherRowsOfTheSameLengthAndItsModificationTimePutBackIsNotAHit() throws IOException {
    Path input = sameLengthInput("raw");
    Stage1<Dataset<Row>> clean = StageCache.at(spark, dir.resolve("cache").toString()).cache(Pipelines::clean);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(OLD_SUM);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(OLD_SUM);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);

    rewriteInPlaceKeepingLengthAndTime(input);

    assertThat(sumOfIds(Pipelines.clean(spark.read().parquet(input.toString())))).as("plain Spark").isEqualTo(NEW_SUM);
    Pipelines.CLEAN_CALLS.set(1);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(NEW_SUM);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(clean.entries()).hasSize(2);
  }

  @Test
  void withInputChecksumsTheSameRewriteIsSeenByTheFilesContent() throws IOException {
    Path input = sameLengthInput("raw");
    Stage1<Dataset<Row>> clean = StageCache.builder(spark, dir.resolve("cache").toString()).inputChecksums(true)
        .build().cache(Pipelines::clean);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(OLD_SUM);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(OLD_SUM);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(clean.entries().get(0).inputs()).anyMatch(i -> i.contains("content checksums"));

    rewriteInPlaceKeepingLengthAndTime(input);

    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(NEW_SUM);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void aTablesFilesReplacedWithoutRefreshFailAsSparkDoesAndAfterRefreshGiveTheNewResult() throws IOException {
    Path table = sameLengthInput("table");
    String name = "replaced_" + Long.toHexString(System.nanoTime());
    spark.sql("CREATE TABLE " + name + " USING parquet LOCATION '" + table.toUri() + "'");
    try {
      Stage1<Dataset<Row>> clean = StageCache.at(spark, dir.resolve("cache").toString()).cache(Pipelines::clean);
      assertThat(sumOfIds(clean.apply(spark.table(name)))).isEqualTo(OLD_SUM);
      assertThat(sumOfIds(clean.apply(spark.table(name)))).isEqualTo(OLD_SUM);
      assertThat(Pipelines.CLEAN_CALLS).hasValue(1);

      // other files in place of the table's, written behind the session's back (no REFRESH TABLE)
      Path other = writeRange("other", 1000, 1200);
      for (Path f : parts(table)) {
        Files.delete(f);
        Files.deleteIfExists(crcOf(f));
      }
      for (Path f : parts(other)) {
        Files.move(f, table.resolve(f.getFileName()));
        Files.move(crcOf(f), crcOf(table.resolve(f.getFileName())));
      }

      assertThatThrownBy(() -> spark.table(name).count()).as("plain Spark").satisfies(StageInputsTest::missingFile);
      assertThatThrownBy(() -> clean.apply(spark.table(name)).count()).satisfies(StageInputsTest::missingFile);
      assertThat(clean.entries()).hasSize(1);

      spark.sql("REFRESH TABLE " + name);
      assertThat(sumOfIds(clean.apply(spark.table(name)))).isEqualTo(NEW_SUM);
      assertThat(clean.entries()).hasSize(2);
    } finally {
      spark.sql("DROP TABLE IF EXISTS " + name);
    }
  }

  @Test
  void aFileTheDatasetListedThatIsGoneIsNeverAHit() throws IOException {
    Path input = writeRange("raw", 0, 200);
    Dataset<Row> listedBefore = spark.read().parquet(input.toString());
    Stage1<Dataset<Row>> clean = StageCache.at(spark, dir.resolve("cache").toString()).cache(Pipelines::clean);
    assertThat(sumOfIds(clean.apply(listedBefore))).isEqualTo(OLD_SUM);
    for (Path f : parts(input)) {
      Files.delete(f);
    }
    assertThatThrownBy(() -> clean.apply(listedBefore).count()).satisfies(StageInputsTest::missingFile);
    assertThat(clean.entries()).hasSize(1);
  }

  /**
   * Spark's failure on a file its index listed and that is gone, somewhere in the chain (a stage
   * wraps it in its write's failure): FAILED_READ_FILE.FILE_NOT_EXIST on Spark 4, a
   * SparkFileNotFoundException ("File ... does not exist") on Spark 3.5.
   */
  private static void missingFile(Throwable t) {
    assertThat(t).satisfiesAnyOf(e -> assertThat(e).hasStackTraceContaining("FILE_NOT_EXIST"),
        e -> assertThat(e).hasStackTraceContaining("SparkFileNotFoundException"));
  }

  @Test
  void aFileAddedAfterTheDatasetWasMadeIsNotReadByItAndNotInItsKey() throws IOException {
    Path input = writeRange("raw", 0, 200);
    Dataset<Row> listedBefore = spark.read().parquet(input.toString());
    Stage1<Dataset<Row>> clean = StageCache.at(spark, dir.resolve("cache").toString()).cache(Pipelines::clean);
    Path more = writeRange("more", 1000, 1200);
    for (Path f : parts(more)) {
      Files.move(f, input.resolve("added-" + f.getFileName()));
    }
    // as Spark reads it: the files it listed when it was made
    assertThat(sumOfIds(clean.apply(listedBefore))).isEqualTo(OLD_SUM);
    assertThat(sumOfIds(clean.apply(spark.read().parquet(input.toString())))).isEqualTo(OLD_SUM + NEW_SUM);
    assertThat(sumOfIds(clean.apply(listedBefore))).isEqualTo(OLD_SUM);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  /** One Parquet file of ids 0..199, written so that ids 1000..1199 take exactly as many bytes. */
  private Path sameLengthInput(String name) {
    return writeRange(name, 0, 200);
  }

  private Path writeRange(String name, long from, long to) {
    Path out = dir.resolve(name);
    spark.range(from, to, 1, 1).write().option("compression", "none").option("parquet.enable.dictionary", "false")
        .parquet(out.toString());
    return out;
  }

  /**
   * Puts the bytes of a file of ids 1000..1199 in place of the input's only file, in the same file
   * (as {@code cp} over it does), with its checksum file, and then its modification time back
   * (as {@code touch -r} does): the same path, length and modification time, other rows.
   */
  private void rewriteInPlaceKeepingLengthAndTime(Path input) throws IOException {
    Path part = parts(input).get(0);
    FileTime before = Files.getLastModifiedTime(part);
    long length = Files.size(part);
    Path other = parts(writeRange("other-" + System.nanoTime(), 1000, 1200)).get(0);
    assertThat(Files.size(other)).as("the replacement's length").isEqualTo(length);
    Files.write(part, Files.readAllBytes(other));
    Files.write(crcOf(part), Files.readAllBytes(crcOf(other)));
    Files.setLastModifiedTime(part, before);
    assertThat(Files.getLastModifiedTime(part)).isEqualTo(before);
    assertThat(Files.size(part)).isEqualTo(length);
  }

  private static Path crcOf(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".crc");
  }

  private static List<Path> parts(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
    }
  }
}
