package io.joblib4j.spark.stages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.MiniDfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input file rewritten with other rows of the same length, its modification time put back (as
 * {@code touch -r} does), seen by a new driver JVM whose stage cache already holds the old result:
 * on local files and on HDFS, with the default settings (before stage inputs were listed at call
 * time, the third run hit with the old sum on both). Each run is a child JVM running {@link
 * StageChild} ({@link ChildStages#clean}: the even ids, doubled, summed).
 */
class StageInputsIT {
  private static final Pattern RESULT = Pattern.compile("RESULT calls=(\\d+) rows=(\\d+) sum=(\\d+)");
  /** 2 * (0 + 2 + ... + 198). */
  private static final long OLD_SUM = 19_800;
  /** 2 * (1000 + 1002 + ... + 1198). */
  private static final long NEW_SUM = 219_800;
  private static SparkSession spark;
  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("joblib4j-stage-inputs-it")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  /**
   * Local files and HDFS in one sequence: each step is one child JVM serving both stores (a driver
   * JVM's Spark start costs 10-25 s on two cores, and the steps are the same for both).
   */
  @Test
  void aFileRewrittenWithTheSameLengthAndModificationTimeIsComputedAgainByANewJvmOnLocalDiskAndHdfs() throws Exception {
    String localInput = dir.resolve("raw").toUri().toString();
    String localOther = dir.resolve("other").toUri().toString();
    String localCache = dir.resolve("cache").toString();
    MiniDFSCluster dfs = MiniDfs.shared();
    String root = MiniDfs.uri(dfs, "/stage-inputs-it/" + System.nanoTime()).toString();
    String hdfsInput = root + "/raw";
    String hdfsOther = root + "/other";
    String hdfsCache = root + "/cache";
    for (String input : List.of(localInput, hdfsInput)) {
      writeRange(input, 0);
    }
    for (String other : List.of(localOther, hdfsOther)) {
      writeRange(other, 1000);
    }
    List<List<Long>> first = run(localCache, localInput, hdfsCache, hdfsInput);
    assertThat(first).as("local, then HDFS: computed").containsExactly(
        List.of(1L, 100L, OLD_SUM), List.of(1L, 100L, OLD_SUM));
    List<List<Long>> second = run(localCache, localInput, hdfsCache, hdfsInput);
    assertThat(second).as("local, then HDFS: a second JVM hits").containsExactly(
        List.of(0L, 100L, OLD_SUM), List.of(0L, 100L, OLD_SUM));

    rewriteLocalKeepingLengthAndTime(localInput, localOther);
    rewriteHdfsKeepingLengthAndTime(dfs.getFileSystem(), hdfsInput, hdfsOther);

    List<List<Long>> third = run(localCache, localInput, hdfsCache, hdfsInput);
    assertThat(third).as("local, then HDFS: the rewritten file's rows").containsExactly(
        List.of(1L, 100L, NEW_SUM), List.of(1L, 100L, NEW_SUM));
  }

  private static void rewriteLocalKeepingLengthAndTime(String input, String other) throws IOException {
    Path part = onlyPart(Path.of(java.net.URI.create(input)));
    Path replacement = onlyPart(Path.of(java.net.URI.create(other)));
    FileTime before = Files.getLastModifiedTime(part);
    assertThat(Files.size(replacement)).isEqualTo(Files.size(part));
    Files.write(part, Files.readAllBytes(replacement));
    Files.write(crcOf(part), Files.readAllBytes(crcOf(replacement)));
    Files.setLastModifiedTime(part, before);
  }

  private static void rewriteHdfsKeepingLengthAndTime(FileSystem fs, String input, String other) throws IOException {
    FileStatus part = onlyPart(fs, new org.apache.hadoop.fs.Path(input));
    FileStatus replacement = onlyPart(fs, new org.apache.hadoop.fs.Path(other));
    assertThat(replacement.getLen()).isEqualTo(part.getLen());
    byte[] bytes = new byte[(int) replacement.getLen()];
    try (var in = fs.open(replacement.getPath())) {
      in.readFully(bytes);
    }
    try (FSDataOutputStream out = fs.create(part.getPath(), true)) {
      out.write(bytes);
    }
    fs.setTimes(part.getPath(), part.getModificationTime(), -1);
    FileStatus now = fs.getFileStatus(part.getPath());
    assertThat(now.getLen()).isEqualTo(part.getLen());
    assertThat(now.getModificationTime()).isEqualTo(part.getModificationTime());
  }

  /** Ids from..from+199 in one Parquet file, uncompressed and without a dictionary: every such file has one length. */
  private static void writeRange(String path, long from) {
    spark.range(from, from + 200, 1, 1).write().option("compression", "none")
        .option("parquet.enable.dictionary", "false").parquet(path);
  }

  private static Path onlyPart(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
    }
  }

  private static FileStatus onlyPart(FileSystem fs, org.apache.hadoop.fs.Path folder) throws IOException {
    for (FileStatus s : fs.listStatus(folder)) {
      if (s.getPath().getName().startsWith("part-")) {
        return s;
      }
    }
    throw new IllegalStateException("no part file in " + folder);
  }

  private static Path crcOf(Path file) {
    return file.resolveSibling("." + file.getFileName() + ".crc");
  }

  /** Runs {@link StageChild} in a new JVM over pairs of (cache, input) and returns each pair's calls, rows and sum. */
  private static List<List<Long>> run(String... cacheAndInput) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String flag : System.getProperty("joblib4j.test.jvmFlags", "").trim().split("\\s+")) {
      if (!flag.isEmpty()) {
        cmd.add(flag);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(StageChild.class.getName());
    cmd.addAll(List.of(cacheAndInput));
    Path log = Files.createTempFile(Path.of("target").toAbsolutePath(), "stage-inputs-child-", ".log");
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().remove("SPARK_HOME");
      Process p = pb.start();
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      String out = Files.readString(log);
      String tail = out.length() > 20_000 ? out.substring(out.length() - 20_000) : out;
      assertThat(p.isAlive()).as("the child ends").isFalse();
      assertThat(p.exitValue()).as(tail).isZero();
      List<List<Long>> results = new ArrayList<>();
      Matcher m = RESULT.matcher(out);
      while (m.find()) {
        results.add(List.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
      }
      assertThat(results).as(tail).hasSize(cacheAndInput.length / 2);
      return results;
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
