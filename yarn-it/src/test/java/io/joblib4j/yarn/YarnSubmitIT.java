package io.joblib4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * joblib4j on YARN, as a data engineer submits it: {@code spark-submit --master yarn} with only this
 * Spark line's bundle in {@code --jars}, on a MiniYARNCluster beside a MiniDFSCluster (one of each
 * for the class: they take 6-12 s to start and 20 s to stop). {@link YarnJob} is submitted twice on
 * one location, once in each deploy mode; the job writes what it computed to HDFS, where the test
 * reads it (a cluster-mode driver runs in a container, its stdout in the container's log).
 */
class YarnSubmitIT {
  private static final Duration APP_START = Duration.ofMinutes(3);
  private static final Duration CLEANUP = Duration.ofMinutes(2);

  private static YarnCluster cluster;
  private static YarnApps apps;
  private static SparkSubmit spark;
  private static FileSystem hdfs;

  @BeforeAll
  static void startClusters() throws Exception {
    Path base = Path.of(System.getProperty("yarn.workDir", "target/yarn-it"));
    Files.createDirectories(base);
    Path work = Files.createTempDirectory(base, "run-");
    cluster = YarnCluster.start(work);
    apps = new YarnApps(cluster.conf());
    spark = new SparkSubmit(cluster.confDir(), work.resolve("logs"));
    hdfs = FileSystem.newInstance(java.net.URI.create(cluster.hdfs()), cluster.conf());
  }

  @AfterAll
  static void stopClusters() throws IOException {
    if (hdfs != null) {
      hdfs.close();
    }
    if (apps != null) {
      apps.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * The deploy mode of the first submission, which computes everything; the second submission, in
   * the other mode, computes nothing. Each line's pom picks the order ({@code client} first on 4.2,
   * {@code cluster} first on 3.5), so across the two lines each mode both computes and hits, for two
   * submissions per line instead of four (each costs 20-70 s on two cores).
   */
  private static final String FIRST_MODE = System.getProperty("yarn.firstDeployMode", "client");

  @Test
  void bothDeployModesRunEveryPartOnTheClusterAndTheSecondSubmissionComputesNothing() throws Exception {
    String secondMode = FIRST_MODE.equals("client") ? "cluster" : "client";
    String location = cluster.hdfs() + "/joblib4j/submitted-twice";
    Properties first = run(FIRST_MODE, location, "first");
    assertThat(first.getProperty("deployMode")).isEqualTo(FIRST_MODE);
    assertThat(first.getProperty("parallel.nJobs")).as("the spark backend's workers: 2 executors of 1 core").isEqualTo("2");
    assertThat(first.getProperty("parallel.tasks")).isEqualTo("8");
    assertThat(first.getProperty("parallel.inExecutorContainers")).as("every task in an executor's container").isEqualTo("true");
    assertThat(first.getProperty("memory.computed")).as("Memory results computed by this run").isEqualTo("8");
    assertThat(first.getProperty("memory.correct")).isEqualTo("true");
    assertThat(first.getProperty("chunks.written")).as("ChunkedArray chunks written by this run").isEqualTo("8");
    assertThat(first.getProperty("chunks.correct")).as("the array, read back whole").isEqualTo("true");
    assertThat(first.getProperty("stage.computed")).as("StageCache stage functions run").isEqualTo("1");
    assertThat(first.getProperty("stage.rows")).isEqualTo("500");
    // one worker may serve all four tiny tasks before the second has started
    assertThat(first.getProperty("processes")).as("a processes call in an executor")
        .matches("workers=[12] parentIsExecutor=true sameContainer=true");

    Properties second = run(secondMode, location, "second");
    assertThat(second.getProperty("deployMode")).isEqualTo(secondMode);
    assertThat(second.getProperty("appId")).isNotEqualTo(first.getProperty("appId"));
    assertThat(second.getProperty("parallel.tasks")).isEqualTo("8");
    assertThat(second.getProperty("parallel.inExecutorContainers")).isEqualTo("true");
    assertThat(second.getProperty("memory.computed")).as("Memory results computed by the second run").isEqualTo("0");
    assertThat(second.getProperty("memory.correct")).isEqualTo("true");
    assertThat(second.getProperty("chunks.written")).as("chunks written by the second run").isEqualTo("0");
    assertThat(second.getProperty("chunks.correct")).isEqualTo("true");
    assertThat(second.getProperty("stage.computed")).as("stage functions run by the second run").isEqualTo("0");
    assertThat(second.getProperty("stage.rows")).isEqualTo("500");
    assertThat(second.getProperty("processes")).matches("workers=[12] parentIsExecutor=true sameContainer=true");
  }

  /** Submits {@code YarnJob run}, waits for it to succeed on YARN, and reads its report. */
  private static Properties run(String deployMode, String location, String name) throws Exception {
    String tag = tag(deployMode + "-" + name);
    SparkSubmit.Exit exit = spark.submit(deployMode, tag, true, "run", location, name);
    assertThat(exit.code()).as("spark-submit's exit code; its output ends:\n" + exit.tail()).isZero();
    ApplicationReport app = apps.await(apps.byTag(tag, APP_START).getApplicationId(), YarnApps.ENDED, CLEANUP);
    assertThat(app.getFinalApplicationStatus()).as(app.getDiagnostics()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
    Properties report = new Properties();
    try (InputStream in = hdfs.open(new org.apache.hadoop.fs.Path(location + "/reports/" + name + ".properties"))) {
      report.load(in);
    }
    assertThat(report.getProperty("appId")).isEqualTo(app.getApplicationId().toString());
    return report;
  }

  /** Tagged {@code container-kill}: it checks YARN's container cleanup, the same on every Spark line (run on 4.2). */
  @Test
  @Tag("container-kill")
  void killingTheApplicationEndsTheProcessesWorkersWithTheirContainer() throws Exception {
    String location = cluster.hdfs() + "/joblib4j/kill";
    String tag = tag("kill");
    SparkSubmit.Exit exit = spark.submit("cluster", tag, false, "hold", location);
    assertThat(exit.code()).as("spark-submit's exit code; its output ends:\n" + exit.tail()).isZero();
    ApplicationId app = apps.byTag(tag, APP_START).getApplicationId();
    String appNumber = app.toString().substring("application_".length());

    List<ProcessHandle> workers;
    List<ProcessHandle> executors = new ArrayList<>();
    try {
      workers = heldWorkers(location + "/held", app);
      for (ProcessHandle w : workers) {
        ProcessHandle parent = w.parent().orElseThrow(() -> new AssertionError("worker " + w.pid() + " has no parent"));
        assertThat(ProcessTable.commandLine(parent)).as("the worker's parent: an executor in a container of " + app)
            .contains("CoarseGrainedExecutorBackend").contains(appNumber);
        executors.add(parent);
      }
    } catch (Throwable e) {
      apps.kill(app); // the job never ends by itself
      throw e;
    }

    apps.kill(app);
    apps.await(app, Set.of(YarnApplicationState.KILLED), CLEANUP);
    List<ProcessHandle> all = new ArrayList<>(workers);
    all.addAll(executors);
    ProcessTable.awaitEnd(all, CLEANUP);
    // and nothing else of the application: its containers' command lines name it
    ProcessTable.awaitNoneNaming(appNumber, CLEANUP);
  }

  /**
   * The two processes workers of {@code YarnJob hold}, once each has written its pid and start
   * time to {@code folder}: still running, as the job never ends by itself.
   */
  private static List<ProcessHandle> heldWorkers(String folder, ApplicationId app)
      throws IOException, YarnException, InterruptedException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(folder);
    long deadline = System.nanoTime() + APP_START.toNanos();
    while (announced(dir).size() < 2) {
      ApplicationReport r = apps.report(app);
      if (YarnApps.ENDED.contains(r.getYarnApplicationState())) {
        throw new AssertionError(app + " ended before its workers started: " + r.getDiagnostics());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the processes workers of " + app + " did not start in " + APP_START);
      }
      Thread.sleep(250); // polling HDFS: the workers announce themselves there, to nobody in particular
    }
    List<ProcessHandle> workers = new ArrayList<>();
    for (FileStatus f : announced(dir)) {
      long pid = Long.parseLong(f.getPath().getName());
      String started;
      try (InputStream in = hdfs.open(f.getPath())) {
        started = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      workers.add(ProcessTable.alive(pid, Long.parseLong(started))
          .orElseThrow(() -> new AssertionError("worker " + pid + " is not running")));
    }
    return workers;
  }

  /** The workers' files in {@code dir}: named by pid, once written whole (renamed from NAME.tmp). */
  private static List<FileStatus> announced(org.apache.hadoop.fs.Path dir) throws IOException {
    if (!hdfs.exists(dir)) {
      return List.of();
    }
    return java.util.Arrays.stream(hdfs.listStatus(dir)).filter(f -> !f.getPath().getName().endsWith(".tmp")).toList();
  }

  /** A tag unique to one submission (YARN keeps tags in lower case). */
  private static String tag(String what) {
    return "joblib4j-" + what + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
