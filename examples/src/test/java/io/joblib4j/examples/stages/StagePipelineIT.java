package io.joblib4j.examples.stages;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stage pipeline example as its README promises it: run twice, as two applications (two driver
 * JVMs on local[2]) against one HDFS (a MiniDFSCluster in this JVM), the first computes its three
 * stages and the second reads all three back and prints the same summary.
 */
class StagePipelineIT {
  private static final Pattern COMPUTED = Pattern.compile("joblib4j stages: (\\d) of 3 stages computed");
  private static final MessageType EVENTS = MessageTypeParser.parseMessageType("message events {"
      + " optional binary user (UTF8); optional binary country (UTF8); optional double amount; }");

  @TempDir static Path work;
  private static MiniDFSCluster dfs;
  private static String root;

  @BeforeAll
  static void startHdfs() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
    dfs = new MiniDFSCluster.Builder(conf, new File(work.resolve("dfs").toString())).numDataNodes(1).build();
    dfs.waitActive();
    root = "hdfs://127.0.0.1:" + dfs.getNameNodePort();
  }

  @AfterAll
  static void stopHdfs() {
    if (dfs != null) {
      dfs.shutdown();
    }
  }

  @Test
  void theSecondRunReadsEveryStageTheFirstComputed() throws Exception {
    String events = root + "/demo/events";
    writeEvents(events);
    String cache = root + "/demo/pipeline-cache";

    String first = runExample(cache, events, "first");
    assertThat(computed(first)).as(first).isEqualTo(3);
    String second = runExample(cache, events, "second");
    assertThat(computed(second)).as(second).isZero();
    // the same summary, read back instead of computed
    assertThat(summary(second)).isEqualTo(summary(first)).contains("|     fr|small|     1|   12.5|");
  }

  /** Five events, two of them dropped by the clean stage (no user, a negative amount). */
  private static void writeEvents(String folder) throws IOException {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(folder + "/part-00000.parquet");
    SimpleGroupFactory rows = new SimpleGroupFactory(EVENTS);
    try (ParquetWriter<Group> out = ExampleParquetWriter.builder(HadoopOutputFile.fromPath(file,
        dfs.getConfiguration(0))).withType(EVENTS).build()) {
      out.write(rows.newGroup().append("user", "ada").append("country", "fr").append("amount", 12.5));
      out.write(rows.newGroup().append("user", "bob").append("country", "de").append("amount", 80.0));
      out.write(rows.newGroup().append("country", "fr").append("amount", 3.0));
      out.write(rows.newGroup().append("user", "cy").append("country", "fr").append("amount", 64.0));
      out.write(rows.newGroup().append("user", "di").append("country", "de").append("amount", -1.0));
    }
  }

  /** Runs StagePipelineExample's main in a JVM of its own, as spark-submit on local[2] would; returns its output. */
  private static String runExample(String cache, String events, String name) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(Arrays.asList(System.getProperty("examples.sparkJvmFlags").trim().split("\\s+")));
    cmd.addAll(List.of("-Xmx1g", "-Dspark.master=local[2]", "-Dspark.ui.enabled=false",
        "-Dspark.driver.host=127.0.0.1", "-Dspark.sql.shuffle.partitions=2",
        "-Dlog4j2.configurationFile=hdfs-demo-log4j2.properties",
        "-cp", System.getProperty("java.class.path"), StagePipelineExample.class.getName(), cache, events));
    Path log = work.resolve(name + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().remove("SPARK_HOME");
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the " + name + " run did not end in 5 minutes: " + Files.readString(log));
    }
    String out = Files.readString(log);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  private static int computed(String output) {
    Matcher m = COMPUTED.matcher(output);
    assertThat(m.find()).as(output).isTrue();
    return Integer.parseInt(m.group(1));
  }

  /** The table show() printed: the lines starting with | or +. */
  private static String summary(String output) {
    StringBuilder sb = new StringBuilder();
    for (String line : output.split("\n")) {
      if (line.startsWith("|") || line.startsWith("+")) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }
}
