package io.joblib4j.spark.stages;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a stage's result is written: partitioned, compressed with the codec asked for, as ORC. */
class StageOutputTest {
  @TempDir Path dir;
  private final SparkSession spark = TestSpark.session();
  private String input;

  @BeforeEach
  void setUp() {
    input = dir.resolve("raw").toString();
    spark.range(0, 100, 1, 2).write().parquet(input);
    Pipelines.CLEAN_CALLS.set(0);
  }

  private Dataset<Row> raw() {
    return spark.read().parquet(input);
  }

  @Test
  void aPartitionedStageIsWrittenInPartitionFoldersAndReadBackPartitioned() throws IOException {
    StageCache stages = StageCache.at(spark, dir.resolve("cache").toString());
    Stage1<Dataset<Row>> bucketed = stages.cache(Pipelines::bucketed).partitionBy("bucket");
    Dataset<Row> first = bucketed.apply(raw());
    Path data = Path.of(URI.create(bucketed.entries().get(0).data()));
    assertThat(subfolders(data)).containsExactlyInAnyOrder("bucket=0", "bucket=1", "bucket=2");
    assertThat(first.columns()).containsExactly("id", "bucket"); // partition columns come last
    // read back partitioned: bucket is the relation's partition column, so a filter on it prunes folders
    assertThat(partitionColumns(first)).containsExactly("bucket");
    Dataset<Row> one = first.filter(col("bucket").equalTo(1));
    assertThat(one.queryExecution().executedPlan().toString()).contains("PartitionFilters: [isnotnull(bucket");
    assertThat(one.count()).isEqualTo(33);

    Dataset<Row> again = stages.cache(Pipelines::bucketed).partitionBy("bucket").apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(again.schema()).isEqualTo(first.schema());
    assertThat(partitionColumns(again)).containsExactly("bucket");
    assertThat(again.filter(col("bucket").equalTo(2)).select("id").as(Encoders.LONG()).collectAsList())
        .allMatch(id -> id % 3 == 2).hasSize(33);
    // not partitioned is another entry (the columns come back in another order)
    assertThat(stages.cache(Pipelines::bucketed).apply(raw()).columns()).containsExactly("id", "bucket");
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void theCompressionAskedForIsTheDataFilesCodecAndNotPartOfTheKey() throws IOException {
    StageCache stages = StageCache.builder(spark, dir.resolve("cache").toString()).compression("zstd").build();
    Stage1<Dataset<Row>> clean = stages.cache(Pipelines::clean);
    clean.apply(raw()).count();
    assertThat(parquetCodecs(clean)).containsOnly(CompressionCodecName.ZSTD);

    StageCache other = StageCache.at(spark, dir.resolve("other").toString());
    Stage1<Dataset<Row>> gzip = other.cache(Pipelines::clean).compression("gzip");
    gzip.apply(raw()).count();
    assertThat(parquetCodecs(gzip)).containsOnly(CompressionCodecName.GZIP);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    // another codec reads the same entry: compression changes the bytes, not the rows
    assertThat(other.cache(Pipelines::clean).compression("snappy").apply(raw()).count()).isEqualTo(50);
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
  }

  @Test
  void anOrcStageIsWrittenAsOrcAndReadBack() throws IOException {
    StageCache orc = StageCache.builder(spark, dir.resolve("cache").toString()).format("orc").compression("zlib")
        .build();
    Stage1<Dataset<Row>> clean = orc.cache(Pipelines::clean);
    Dataset<Row> first = clean.apply(raw());
    List<Path> files = dataFiles(clean);
    assertThat(files).isNotEmpty().allMatch(f -> f.getFileName().toString().endsWith(".orc"));
    for (Path f : files) {
      try (Reader r = OrcFile.createReader(new org.apache.hadoop.fs.Path(f.toUri()),
          OrcFile.readerOptions(new Configuration()))) {
        assertThat(r.getCompressionKind()).isEqualTo(CompressionKind.ZLIB);
      }
    }
    assertThat(spark.read().orc(clean.entries().get(0).data()).count()).isEqualTo(50);
    Dataset<Row> again = orc.cache(Pipelines::clean).apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(1);
    assertThat(again.inputFiles()).containsExactlyInAnyOrder(first.inputFiles());
    assertThat(again.select("twice").as(Encoders.LONG()).collectAsList()).allMatch(t -> t % 4 == 0).hasSize(50);
    // the same stage in Parquet at the same location is another entry
    StageCache parquet = StageCache.at(spark, dir.resolve("cache").toString());
    parquet.cache(Pipelines::clean).apply(raw());
    assertThat(Pipelines.CLEAN_CALLS).hasValue(2);
    assertThat(parquet.entries()).hasSize(2);
  }

  private static List<CompressionCodecName> parquetCodecs(Stage1<?> stage) throws IOException {
    List<CompressionCodecName> out = new java.util.ArrayList<>();
    for (Path f : dataFiles(stage)) {
      try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(f.toUri()), new Configuration()))) {
        r.getFooter().getBlocks().forEach(b -> b.getColumns().forEach(c -> out.add(c.getCodec())));
      }
    }
    return out;
  }

  private static List<Path> dataFiles(Stage1<?> stage) throws IOException {
    Path data = Path.of(URI.create(stage.entries().get(0).data()));
    try (Stream<Path> s = Files.walk(data)) {
      return s.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".")
          && !f.getFileName().toString().startsWith("_")).toList();
    }
  }

  private static List<String> partitionColumns(Dataset<Row> ds) {
    List<String> out = new java.util.ArrayList<>();
    ds.queryExecution().analyzed().foreach(n -> {
      if (n instanceof org.apache.spark.sql.execution.datasources.LogicalRelation lr
          && lr.relation() instanceof org.apache.spark.sql.execution.datasources.HadoopFsRelation fs) {
        out.addAll(List.of(fs.partitionSchema().fieldNames()));
      }
      return null;
    });
    return out;
  }

  private static List<String> subfolders(Path data) throws IOException {
    try (Stream<Path> s = Files.list(data)) {
      return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList();
    }
  }
}
