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
 * on local files and on HDFS, with the default settings. Each run is a child JVM running {@link
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

  @Test
  void aLocalFileRewrittenWithTheSameLengthAndModificationTimeIsComputedAgainByANewJvm() throws Exception {
    String input = dir.resolve("raw").toUri().toString();
    String other = dir.resolve("other").toUri().toString();
    writeRange(input, 0);
    writeRange(other, 1000);
    String cache = dir.resolve("cache").toString();
    assertThat(run(cache, input)).containsExactly(1L, 100L, OLD_SUM);
    assertThat(run(cache, input)).as("a second JVM hits").containsExactly(0L, 100L, OLD_SUM);

    Path part = onlyPart(Path.of(java.net.URI.create(input)));
    Path replacement = onlyPart(Path.of(java.net.URI.create(other)));
    FileTime before = Files.getLastModifiedTime(part);
    assertThat(Files.size(replacement)).isEqualTo(Files.size(part));
    Files.write(part, Files.readAllBytes(replacement));
    Files.write(crcOf(part), Files.readAllBytes(crcOf(replacement)));
    Files.setLastModifiedTime(part, before);

    assertThat(run(cache, input)).containsExactly(1L, 100L, NEW_SUM);
  }

  @Test
  void anHdfsFileRewrittenWithTheSameLengthAndModificationTimeIsComputedAgainByANewJvm() throws Exception {
    MiniDFSCluster dfs = MiniDfs.shared();
    String root = MiniDfs.uri(dfs, "/stage-inputs-it/" + System.nanoTime()).toString();
    String input = root + "/raw";
    String other = root + "/other";
    writeRange(input, 0);
    writeRange(other, 1000);
    String cache = root + "/cache";
    assertThat(run(cache, input)).containsExactly(1L, 100L, OLD_SUM);
    assertThat(run(cache, input)).as("a second JVM hits").containsExactly(0L, 100L, OLD_SUM);

    FileSystem fs = dfs.getFileSystem();
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

    assertThat(run(cache, input)).containsExactly(1L, 100L, NEW_SUM);
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

  /** Runs {@link StageChild} in a new JVM and returns its calls, rows and sum. */
  private static List<Long> run(String cache, String input) throws Exception {
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
    cmd.add(cache);
    cmd.add(input);
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
      Matcher m = RESULT.matcher(out);
      assertThat(m.find()).as(tail).isTrue();
      return List.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
