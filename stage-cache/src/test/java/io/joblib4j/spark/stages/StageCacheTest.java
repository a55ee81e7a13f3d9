package io.joblib4j.spark.stages;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.current_timestamp;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.fn.Fn1;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stage cache on a local folder and local[2]: keys, hits, refusals, layout and housekeeping. */
class StageCacheTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private String input;
  private StageCache stages;

  @BeforeEach
  void setUp() {
    input = dir.resolve("raw").toString();
    spark.range(0, 100, 1, 4).write().parquet(input);
    stages = StageCache.at(spark, dir.resolve("cache").toString());
    Pipelines.CLEAN_CALLS.set(0);
    Pipelines.ENRICH_CALLS.set(0);
    Pipelines.JOIN_CALLS.set(0);
  }

  private Dataset<Row> raw() {
    return spark.read().parquet(input);
  }

  private static List<Long> ids(Dataset<Row> ds) {
    return ds.select("id").as(Encoders.LONG()).collectAsList().stream().sorted().toList();
  }

  @Test
  void aHitDoesNotCallTheStageAndReadsWhatWasStored() {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    Dataset<Row> first = clean.apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(first.count()).isEqualTo(50);
    assertThat(first.inputFiles()).allMatch(f -> f.contains("/stages/Pipelines.clean-"));

    Dataset<Row> again = stages.cache(Pipelines::clean).apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(ids(again)).isEqualTo(ids(first));
    assertThat(again.schema()).isEqualTo(first.schema());
    assertThat(again.inputFiles()).containsExactlyInAnyOrder(first.inputFiles());

    List<StageEntry> entries = stages.entries();
    assertThat(entries).hasSize(1);
    StageEntry e = entries.get(0);
    assertThat(e.name()).isEqualTo("Pipelines.clean");
    assertThat(e.rows()).isEqualTo(50);
    assertThat(e.bytes()).isPositive();
    assertThat(e.inputs()).anyMatch(i -> i.contains("4 Parquet files") && i.contains(input.substring(1)));
  }

  @Test
  void anInputFileRewrittenAtTheSamePathGivesANewEntry() throws IOException {
    Path single = dir.resolve("single");
    spark.range(0, 100, 1, 1).write().parquet(single.toString());
    Path file = onlyPart(single);
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThat(clean.apply(spark.read().parquet(single.toString())).count()).isEqualTo(50);
    // the same path, other content
    Path other = dir.resolve("other");
    spark.range(0, 10, 1, 1).write().parquet(other.toString());
    Files.copy(onlyPart(other), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    file.toFile().setLastModified(System.currentTimeMillis() + 5_000);
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
    Dataset<Row> after = clean.apply(spark.read().parquet(single.toString()));
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(after.count()).isEqualTo(5);
    assertThat(clean.entries()).hasSize(2);
  }

  private static Path onlyPart(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
    }
  }

  @Test
  void aChangedPlainArgumentOrCapturedValueGivesANewEntry() {
    Stage3<Dataset<Row>, Dataset<Row>, Integer> join = stages.cache(Pipelines::join);
    Dataset<Row> left = stages.cache(Pipelines::clean).apply(raw());
    Dataset<Row> right = raw().filter(col("id").lt(10));
    Dataset<Row> three = join.apply(left, right, 3);
    assertThat(three.orderBy("id").first().getLong(1)).isZero();
    assertThat(three.agg(org.apache.spark.sql.functions.sum("scaled")).first().getLong(0))
        .isEqualTo(3 * (0 + 4 + 8 + 12 + 16) * 1L);
    join.apply(left, right, 3);
    assertThat(Pipelines.JOIN_CALLS).hasValue(1);
    join.apply(left, right, 4);
    assertThat(Pipelines.JOIN_CALLS).hasValue(2);

    for (int k : new int[] {1, 2, 1}) {
      Fn1<Dataset<Row>, Dataset<Row>> plus = ds -> ds.withColumn("k", col("id").plus(k));
      stages.cache(plus).apply(raw());
    }
    assertThat(stages.entries().stream().filter(e -> e.name().startsWith("lambda in")).count()).isEqualTo(2);
  }

  @Test
  void aStageReadingAnotherStagesOutputIsKeyedByThatStagesKeyWithoutListingIt() {
    Dataset<Row> cleaned = stages.cache(Pipelines::clean).apply(raw());
    Dataset<Row> enriched = stages.cache(Pipelines::enrich).apply(cleaned);
    assertThat(enriched.filter(col("source").equalTo("enriched")).count()).isEqualTo(50);
    StageEntry cleanEntry = stages.catalog().list("Pipelines.clean").get(0);
    StageEntry enrichEntry = stages.catalog().list("Pipelines.enrich").get(0);
    assertThat(enrichEntry.inputs()).containsExactly("arg0: stage " + cleanEntry.stage() + "/" + cleanEntry.key());

    // the next run: every stage is read
    Dataset<Row> again = stages.cache(Pipelines::enrich).apply(stages.cache(Pipelines::clean).apply(raw()));
    assertThat(again.count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(Pipelines.ENRICH_CALLS).hasValue(1);
  }

  @Test
  void aChangedUdfBodyOrTypedFunctionGivesANewEntryAndTheSameOneHits() {
    Fn1<Dataset<Row>, Dataset<Row>> identity = ds -> ds;
    Stage1<Dataset<Row>> stage = stages.cache(identity);
    UDF1<Long, Long> plusOne = x -> x + 1;
    UDF1<Long, Long> plusTwo = x -> x + 2;
    UserDefinedFunction one = udf(plusOne, DataTypes.LongType);
    stage.apply(raw().withColumn("u", one.apply(col("id"))));
    stage.apply(raw().withColumn("u", udf(plusOne, DataTypes.LongType).apply(col("id"))));
    assertThat(stage.entries()).hasSize(1);
    stage.apply(raw().withColumn("u", udf(plusTwo, DataTypes.LongType).apply(col("id"))));
    assertThat(stage.entries()).hasSize(2);
    MapFunction<Long, Long> doubled = x -> x * 2;
    MapFunction<Long, Long> tripled = x -> x * 3;
    stage.apply(raw().as(Encoders.LONG()).map(doubled, Encoders.LONG()).toDF());
    stage.apply(raw().as(Encoders.LONG()).map(tripled, Encoders.LONG()).toDF());
    assertThat(stage.entries()).hasSize(4);
    assertThat(stage.explain(raw().as(Encoders.LONG()).map(doubled, Encoders.LONG()).toDF()).toString()).contains("is stored");
  }

  @Test
  void nonDeterministicPlansAreRefusedUnlessAllowed() {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThatThrownBy(() -> clean.apply(raw().withColumn("r", rand())))
        .isInstanceOf(StageKeyException.class)
        .hasMessageContaining("arg0 is not deterministic")
        .hasMessageContaining("rand")
        .hasMessageContaining(".allowNondeterministic()");
    assertThatThrownBy(() -> clean.apply(raw().withColumn("t", current_timestamp())))
        .isInstanceOf(StageKeyException.class)
        .hasMessageContaining("current_timestamp");
    UDF1<Long, Long> plus = x -> x + 1;
    assertThatThrownBy(() -> clean.apply(raw().withColumn("u", udf(plus, DataTypes.LongType).asNondeterministic()
        .apply(col("id"))))).isInstanceOf(StageKeyException.class);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(0);
    assertThat(clean.allowNondeterministic().apply(raw().withColumn("r", rand(7))).count()).isEqualTo(50);
  }

  @Test
  void rddBackedAndStreamingInputsAreRefusedAndAnInputKeyOptsIn() {
    JavaRDD<Row> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext())
        .parallelize(List.of(RowFactory.create(1L), RowFactory.create(2L)));
    Dataset<Row> fromRdd = spark.createDataFrame(rdd, new StructType().add("id", "long"));
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    assertThatThrownBy(() -> clean.apply(fromRdd))
        .isInstanceOf(StageKeyException.class)
        .hasMessageContaining("an RDD")
        .hasMessageContaining("inputKey(");
    Dataset<Row> stream = spark.readStream().format("rate").load();
    assertThatThrownBy(() -> clean.apply(stream)).isInstanceOf(StageKeyException.class).hasMessageContaining("stream");
    assertThat(clean.inputKey("export-1").apply(fromRdd).count()).isEqualTo(1);
    clean.inputKey("export-1").apply(fromRdd);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    clean.inputKey("export-2").apply(fromRdd);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void localRowsAreKeyedByTheirValues() {
    StructType schema = new StructType().add("id", "long").add("s", "string");
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(spark.createDataFrame(List.of(RowFactory.create(2L, "a")), schema));
    clean.apply(spark.createDataFrame(List.of(RowFactory.create(2L, "a")), schema));
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    Dataset<Row> b = clean.apply(spark.createDataFrame(List.of(RowFactory.create(2L, "b")), schema));
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(b.select("s").first().getString(0)).isEqualTo("b");
  }

  @Test
  void explainNamesTheComponentThatDiffers() {
    Stage3<Dataset<Row>, Dataset<Row>, Integer> join = stages.cache(Pipelines::join);
    Dataset<Row> left = Pipelines.clean(raw());
    assertThat(join.explain(left, raw(), 1).toString()).contains("has no stored entries");
    join.apply(left, raw(), 1);
    assertThat(join.explain(left, raw(), 1).toString()).contains("is stored");
    io.joblib4j.MissExplanation why = join.explain(left, raw().filter(col("id").gt(3)), 2);
    assertThat(why.cached()).isFalse();
    assertThat(why.closest()).hasValueSatisfying(e -> assertThat(e.function()).isEqualTo("Pipelines.join"));
    assertThat(why.differences()).extracting(io.joblib4j.MissExplanation.Difference::name).contains("arg1.plan", "arg2")
        .noneMatch(n -> n.startsWith("arg0."));
    String changed = why.toString();
    assertThat(changed).contains("arg1.plan").contains("arg2: now 2; then 1").doesNotContain("arg0.");
    spark.conf().set("spark.sql.session.timeZone", "Asia/Tokyo");
    try {
      assertThat(join.explain(left, raw(), 1).toString()).contains("settings");
    } finally {
      spark.conf().unset("spark.sql.session.timeZone");
    }
  }

  @Test
  void refreshRecomputesAndExpiredEntriesAreReplaced() {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(raw());
    clean.refresh().apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(clean.entries()).hasSize(1);
    clean.apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);

    TestClock clock = new TestClock(Instant.parse("2026-12-01T10:00:00Z"));
    StageCache timed = StageCache.builder(spark, dir.resolve("timed").toString()).clock(clock).build();
    timed.cache(Pipelines::clean).expiresAfter(Duration.ofHours(1)).apply(raw());
    clock.advance(Duration.ofMinutes(30));
    timed.cache(Pipelines::clean).expiresAfter(Duration.ofHours(1)).apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(3);
    clock.advance(Duration.ofMinutes(31));
    timed.cache(Pipelines::clean).expiresAfter(Duration.ofHours(1)).apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(4);
  }

  @Test
  void aDamagedEntryIsDeletedAndRecomputedNeverRead() throws IOException {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(raw());
    Path data = Path.of(java.net.URI.create(clean.entries().get(0).data()));
    Path part;
    try (Stream<Path> files = Files.list(data)) {
      part = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.delete(part);
    assertThat(clean.apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(Files.exists(data)).isFalse();

    // a stray data file in an entry's folder (Spark would read it): not the stored entry any more
    Path data2 = Path.of(java.net.URI.create(clean.entries().get(0).data()));
    Files.writeString(data2.resolve("part-99999-stray.parquet"), "not parquet");
    assertThat(clean.apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(3);
  }

  @Test
  void aForeignDataFileInPlaceOfOneOfOursIsNeverReadWithTheStoredSchema() throws IOException {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    StructType stored = clean.apply(raw()).schema();
    Path data = Path.of(java.net.URI.create(clean.entries().get(0).data()));
    Path ours;
    try (Stream<Path> files = Files.list(data)) {
      ours = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    // a Parquet file of another table, with another schema, under the name of one of ours
    Path foreign = dir.resolve("foreign");
    spark.range(0, 1000, 1, 1).selectExpr("cast(id as string) as name").write().parquet(foreign.toString());
    Files.copy(onlyPart(foreign), ours, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(ours.resolveSibling("." + ours.getFileName() + ".crc"));

    Dataset<Row> again = clean.apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2); // the entry was found damaged, deleted and computed again
    assertThat(again.schema()).isEqualTo(stored);
    assertThat(again.count()).isEqualTo(50);
    assertThat(Files.exists(data)).isFalse(); // the damaged entry's data went with it
  }

  @Test
  void dataNoEntryNamesIsNeverReadAndTheSweepRemovesIt() throws IOException {
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(raw());
    StageEntry e = clean.entries().get(0);
    Path data = Path.of(java.net.URI.create(e.data()));
    // what a writer killed before publishing leaves: a whole data folder (with _SUCCESS) and no record
    stages.catalog().delete(e);
    Path orphan = data.resolveSibling(e.key() + ".00000000-0000-4000-8000-000000000000");
    spark.range(0, 3).write().parquet(orphan.toString());
    assertThat(clean.entries()).isEmpty();
    assertThat(clean.apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(Files.exists(orphan)).isTrue(); // younger than the sweep age: it may be a writer at work
    assertThat(stages.catalog().sweep(Duration.ZERO)).isEqualTo(1);
    assertThat(Files.exists(orphan)).isFalse();
    assertThat(clean.apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void listingClearingAndPruning() {
    TestClock clock = new TestClock(Instant.parse("2026-12-01T10:00:00Z"));
    StageCache limited = StageCache.builder(spark, dir.resolve("limited").toString()).clock(clock).maxEntries(2).build();
    Stage1<Dataset<Row>> clean = limited.cache(Pipelines::clean);
    for (int n = 10; n <= 30; n += 10) {
      clean.apply(raw().filter(col("id").lt(n)));
      clock.advance(Duration.ofMinutes(1));
    }
    assertThat(clean.entries()).hasSize(2); // the limit holds after every new entry
    limited.cache(Pipelines::enrich).apply(raw());
    assertThat(limited.entries()).hasSize(2);

    StageCache plain = StageCache.at(spark, dir.resolve("plain").toString());
    plain.cache(Pipelines::clean).apply(raw());
    plain.cache(Pipelines::enrich).apply(raw());
    plain.cache(Pipelines::enrich).apply(raw().limit(3));
    assertThat(plain.catalog().list("Pipelines.enrich")).hasSize(2);
    long total = plain.catalog().bytes();
    assertThat(plain.prune(null, 0, null)).isEmpty();
    List<StageEntry> pruned = plain.prune(Long.toString(total - 1), 0, null);
    assertThat(pruned).hasSize(1);
    long cleanEntries = plain.catalog().list("Pipelines.clean").size();
    assertThat(plain.cache(Pipelines::clean).clear()).isEqualTo(cleanEntries);
    assertThat(plain.catalog().list("Pipelines.clean")).isEmpty();
    int left = plain.entries().size();
    assertThat(left).isPositive();
    assertThat(plain.clear()).isEqualTo(left);
    assertThat(plain.entries()).isEmpty();
  }

  @Test
  void aMemoryAndAStageCacheShareALocationWithoutTouchingEachOther() {
    Path shared = dir.resolve("shared");
    Memory memory = Memory.builder(shared).verbose(0).build();
    MemoizedFn1<Integer, Integer> square = memory.cache(StageCacheTest::square);
    assertThat(square.apply(7)).isEqualTo(49);
    StageCache here = StageCache.at(spark, shared.toString());
    here.cache(Pipelines::clean).apply(raw());

    memory.clear();
    assertThat(here.entries()).hasSize(1);
    assertThat(here.cache(Pipelines::clean).apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);

    assertThat(square.apply(7)).isEqualTo(49);
    assertThat(square.checkCallInCache(7)).isTrue();
    here.clear();
    assertThat(square.checkCallInCache(7)).isTrue();
    assertThat(here.entries()).isEmpty();
  }

  static int square(int x) {
    return x * x;
  }

  @Test
  void badOptionsAndResultsSayWhatIsWrong() {
    assertThatThrownBy(() -> StageCache.builder(spark, dir.toString()).format("delta"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parquet");
    assertThatThrownBy(() -> StageCache.builder(spark, dir.toString()).maxBytes("lots"))
        .isInstanceOf(IllegalArgumentException.class);
    Fn1<Dataset<Row>, Dataset<Row>> nothing = ds -> null;
    assertThatThrownBy(() -> stages.cache(nothing).apply(raw())).hasMessageContaining("returned null");
    Fn1<Dataset<Row>, Dataset<Row>> failing = ds -> {
      throw new IllegalStateException("the stage's own failure");
    };
    assertThatThrownBy(() -> stages.cache(failing).apply(raw())).isInstanceOf(IllegalStateException.class)
        .hasMessage("the stage's own failure");
    assertThat(stages.entries()).isEmpty();
  }
}
