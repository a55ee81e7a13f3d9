package io.joblib4j.spark.stages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.hdfs.MiniDfs;
import io.joblib4j.spark.stages.Stage1;
import io.joblib4j.spark.stages.StageCache;
import io.joblib4j.spark.stages.StageEntry;
import io.joblib4j.testing.Rendezvous;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import io.joblib4j.hdfs.LocalCluster;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stage cache across JVMs, on HDFS (a MiniDFSCluster): child driver JVMs (local[2]) compute,
 * race and die at chosen points; this JVM, a driver of local-cluster[2,1,1024] whose executors are
 * other JVMs (the stage's typed map travels to them in the tests jar), reads what they left.
 */
class StageCacheIT {
  private static final Pattern RESULT = Pattern.compile("RESULT calls=(\\d+) rows=(\\d+) sum=(\\d+)");
  /** The even ids of 0..999, doubled: sum of 2 * (0 + 2 + ... + 998). */
  private static final long EXPECTED_SUM = 2L * 249_500;
  private static MiniDFSCluster dfs;
  private static SparkSession spark;
  private static String input;
  private static int location;

  @BeforeAll
  static void start() {
    dfs = MiniDfs.shared();
    SparkConf conf = LocalCluster.conf("joblib4j-stage-cache-it");
    spark = SparkSession.builder().config(conf).getOrCreate();
    input = MiniDfs.uri(dfs, "/it/raw").toString();
    spark.range(0, 1000, 1, 4).write().parquet(input);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static String newLocation() {
    return MiniDfs.uri(dfs, "/it/cache-" + (++location)).toString();
  }

  private static Stage1<Dataset<Row>> stage(String location) {
    return StageCache.builder(spark, location).sweepAge(Duration.ZERO).build().cache(ChildStages::clean);
  }

  @Test
  void twoJvmsComputingTheSameStageAtOnceLeaveOneEntryBothRightAndAThirdJvmHitsIt() throws Exception {
    String loc = newLocation();
    try (Rendezvous r = Rendezvous.open()) {
      Rendezvous.Gate gate = r.gate("computing");
      String at = gate.host() + ":" + gate.port() + ":" + gate.name();
      Child a = Child.start(loc, Map.of("stage.driverGate", at));
      Child b = Child.start(loc, Map.of("stage.driverGate", at));
      awaitArrivals(r, "computing", 2, a, b); // both missed and are inside the stage function
      r.openGate("computing");
      assertThat(a.result()).containsExactly(1L, 500L, EXPECTED_SUM);
      assertThat(b.result()).containsExactly(1L, 500L, EXPECTED_SUM);
    }
    StageCache stages = StageCache.at(spark, loc);
    List<StageEntry> entries = stages.entries();
    assertThat(entries).hasSize(1);
    // the loser deleted its own data: one data folder, the winner's
    String stageFolder = entries.get(0).stage();
    assertThat(stages.catalog().sweep(Duration.ZERO)).isZero();
    assertThat(dataFolders(loc, stageFolder)).containsExactly(entries.get(0).data().replaceAll(".*/", ""));
    // a third driver, this JVM (another SparkSession, on local-cluster), hits what the others stored
    int before = ChildStages.CALLS.get();
    Dataset<Row> hit = stage(loc).apply(spark.read().parquet(input));
    assertThat(ChildStages.CALLS.get()).isEqualTo(before); // the stage function did not run here
    assertThat(hit.agg(org.apache.spark.sql.functions.sum("twice")).first().getLong(0)).isEqualTo(EXPECTED_SUM);
  }

  @Test
  void aWriterKilledAtAnyPointLeavesNothingALaterRunReads() throws Exception {
    List<String> points = List.of("inTask", "afterWrite", "afterPublish");
    Map<String, String> locations = new java.util.LinkedHashMap<>();
    try (Rendezvous r = Rendezvous.open()) {
      // the three writers run at once (each in its own location): three JVM starts cost one
      Map<String, Child> children = new java.util.LinkedHashMap<>();
      for (String point : points) {
        locations.put(point, newLocation());
        Map<String, String> props = point.equals("inTask")
            ? Map.of("stage.taskGate", gateSpec(r.gate("writing"))) : Map.of("stage.haltAt", point);
        children.put(point, Child.start(locations.get(point), props));
      }
      Child inTask = children.get("inTask");
      awaitArrivals(r, "writing", 1, inTask); // a write task is running: kill the driver now
      inTask.process.destroyForcibly();
      assertThat(inTask.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      for (String point : List.of("afterWrite", "afterPublish")) {
        Child c = children.get(point);
        assertThat(c.process.waitFor(300, TimeUnit.SECONDS)).isTrue();
        assertThat(c.process.exitValue()).as(point + ": " + c.output()).isEqualTo(3);
      }
      for (Child c : children.values()) {
        c.deleteLog();
      }
    }
    for (String point : points) {
      String loc = locations.get(point);
      boolean committed = point.equals("afterPublish");
      StageCache stages = StageCache.builder(spark, loc).sweepAge(Duration.ZERO).build();
      assertThat(stages.entries()).as(point).hasSize(committed ? 1 : 0);
      int before = ChildStages.CALLS.get();
      Dataset<Row> out = stage(loc).apply(spark.read().parquet(input));
      assertThat(out.agg(org.apache.spark.sql.functions.sum("twice")).first().getLong(0)).as(point)
          .isEqualTo(EXPECTED_SUM);
      assertThat(out.count()).as(point).isEqualTo(500);
      assertThat(ChildStages.CALLS.get() - before).as(point + ": computed again").isEqualTo(committed ? 0 : 1);
      // the new entry's publication swept the dead writer's folder (the sweep age is zero here)
      StageEntry e = stages.entries().get(0);
      assertThat(dataFolders(loc, e.stage())).as(point).containsExactly(e.data().replaceAll(".*/", ""));
    }
  }

  private static String gateSpec(Rendezvous.Gate gate) {
    return gate.host() + ":" + gate.port() + ":" + gate.name();
  }

  @Test
  void withCommitMarkersTheMarkerDecidesAndAnEntryWithoutOneIsNeverRead() throws Exception {
    // the publish object stores get (a scheme not known to rename atomically), forced on HDFS
    String loc = newLocation();
    StageCache stages = StageCache.builder(spark, loc).storeOption("commit", "marker")
        .storeOption("publishWait", "1s").sweepAge(Duration.ZERO).build();
    Stage1<Dataset<Row>> clean = stages.cache(ChildStages::clean);
    int before = ChildStages.CALLS.get();
    assertThat(sumOfTwice(clean.apply(spark.read().parquet(input)))).isEqualTo(EXPECTED_SUM);
    StageEntry e = stages.entries().get(0);
    org.apache.hadoop.fs.Path entry = new org.apache.hadoop.fs.Path(loc + "/" + StageLayout.entry(e.stage(), e.key()));
    org.apache.hadoop.fs.FileSystem fs = entry.getFileSystem(spark.sparkContext().hadoopConfiguration());
    List<String> names = new ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(entry)) {
      names.add(f.getPath().getName());
    }
    // no temporary renamed and no claim: entry.json (small) lives in the manifest, the commit point
    assertThat(names).contains(".jl4j-commit").doesNotContain(".jl4j-claim");
    assertThat(sumOfTwice(clean.apply(spark.read().parquet(input)))).isEqualTo(EXPECTED_SUM);
    assertThat(ChildStages.CALLS.get() - before).as("the second call hits").isEqualTo(1);

    // a writer that died before its manifest: what it wrote is never read
    fs.delete(new org.apache.hadoop.fs.Path(entry, ".jl4j-commit"), false);
    assertThat(stages.entries()).isEmpty();
    assertThat(sumOfTwice(clean.apply(spark.read().parquet(input)))).isEqualTo(EXPECTED_SUM);
    assertThat(ChildStages.CALLS.get() - before).as("computed again").isEqualTo(2);
    // and nothing it left blocks the key: the next writer publishes at once
    assertThat(stages.entries()).hasSize(1);
  }

  private static long sumOfTwice(Dataset<Row> ds) {
    return ds.agg(org.apache.spark.sql.functions.sum("twice")).first().getLong(0);
  }

  @Test
  void aWriteTaskRetriedBySparkLeavesEachRowOnce() {
    String loc = newLocation();
    Stage1<Dataset<Row>> flaky = StageCache.at(spark, loc).cache(ChildStages::flaky);
    Dataset<Row> out = flaky.apply(spark.read().parquet(input));
    assertThat(out.count()).isEqualTo(500);
    assertThat(out.agg(org.apache.spark.sql.functions.sum("twice")).first().getLong(0)).isEqualTo(EXPECTED_SUM);
    assertThat(StageCache.at(spark, loc).entries().get(0).rows()).isEqualTo(500);
  }

  /**
   * Waits for {@code n} arrivals at the gate for as long as the children live (a loaded machine
   * starts their Spark slowly: up to 5 of the rendezvous' patiences), failing at once with a
   * child's output if it died.
   */
  private static void awaitArrivals(Rendezvous r, String gate, int n, Child... children) throws IOException {
    for (int tries = 0; r.arrivals(gate) < n; tries++) {
      for (Child c : children) {
        if (!c.process.isAlive()) {
          throw new AssertionError("a child died before reaching " + gate + ": " + c.output());
        }
      }
      try {
        r.awaitArrivals(gate, n);
      } catch (AssertionError e) {
        if (tries >= 4) {
          throw e;
        }
      }
    }
  }

  private static List<String> dataFolders(String loc, String stage) throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(loc + "/" + StageLayout.dataRoot(stage));
    org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
    List<String> out = new ArrayList<>();
    if (fs.exists(dir)) {
      for (org.apache.hadoop.fs.FileStatus s : fs.listStatus(dir)) {
        out.add(s.getPath().getName());
      }
    }
    return out;
  }

  /** A child driver JVM running {@link StageChild}. */
  private record Child(Process process, Path log) {
    static Child start(String location, Map<String, String> properties) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      for (String flag : System.getProperty("joblib4j.test.jvmFlags", "").trim().split("\\s+")) {
        if (!flag.isEmpty()) {
          cmd.add(flag);
        }
      }
      properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(StageChild.class.getName());
      cmd.add(location);
      cmd.add(input);
      Path log = Files.createTempFile(Path.of("target").toAbsolutePath(), "stage-child-", ".log");
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().remove("SPARK_HOME"); // local[2]: no Worker, no fake home needed
      return new Child(pb.start(), log);
    }

    /** Waits for the child and returns its calls, rows and sum. */
    List<Long> result() throws Exception {
      assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("the child ends").isTrue();
      String out = output();
      deleteLog();
      assertThat(process.exitValue()).as(out).isZero();
      Matcher m = RESULT.matcher(out);
      assertThat(m.find()).as(out).isTrue();
      return List.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    /** The child's output so far (its last 20,000 characters). */
    String output() throws IOException {
      String s = Files.exists(log) ? Files.readString(log) : "";
      return s.length() > 20_000 ? s.substring(s.length() - 20_000) : s;
    }

    void deleteLog() throws IOException {
      Files.deleteIfExists(log);
    }
  }
}
