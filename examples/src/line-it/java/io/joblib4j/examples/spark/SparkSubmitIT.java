package io.joblib4j.examples.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example jar through org.apache.spark.deploy.SparkSubmit in a child JVM, as a user's
 * spark-submit does, with no Spark distribution: the class path is the jars of the Spark line under
 * test from Maven, and joblib4j arrives only as that line's bundle ({@code --jars
 * joblib4j-spark-4-bundle_2.13.jar} on Spark 4; {@code examples.bundleArtifact}). On local[2], and on a
 * standalone Master and Worker (two more JVMs, shared by the tests) in client mode and in cluster
 * mode, where the Worker runs the driver too. Executors get Spark's jars and what spark-submit
 * ships, nothing else.
 */
class SparkSubmitIT {
  private static final String MAIN = "io.joblib4j.examples.spark.SparkScoring";

  @TempDir static Path work;
  private static Daemon master;
  private static Daemon worker;
  private static String masterUrl;

  @BeforeAll
  static void startStandaloneCluster() throws Exception {
    int masterPort = freePort();
    masterUrl = "spark://127.0.0.1:" + masterPort;
    master = Daemon.start("org.apache.spark.deploy.master.Master", "I have been elected leader",
        "--host", "127.0.0.1", "--port", String.valueOf(masterPort), "--webui-port", String.valueOf(freePort()));
    // 3 cores and 3 GiB: two executors, and the driver itself in cluster mode
    worker = Daemon.start("org.apache.spark.deploy.worker.Worker", "Successfully registered with master",
        "--host", "127.0.0.1", "--cores", "3", "--memory", "3g", "--webui-port", String.valueOf(freePort()),
        "--work-dir", work.resolve("worker").toString(), masterUrl);
  }

  @AfterAll
  static void stopStandaloneCluster() throws InterruptedException {
    if (worker != null) {
      worker.stop();
    }
    if (master != null) {
      master.stop();
    }
  }

  @Test
  void runsOnLocalWithOnlyTheBundle() throws Exception {
    Run r = submit("local[2]", List.of("--jars", bundle()), sparkClasspath());
    assertThat(r.exit).as(r.output).isZero();
    assertThat(r.output).contains("32 folds scored in 1 JVMs").contains("all correct")
        .as("the Spark line under test").contains("Running Spark version " + property("examples.sparkVersion"));
  }

  @Test
  void runsInClientModeOnAStandaloneClusterWithOnlyTheBundle() throws Exception {
    Run r = submit(masterUrl, standalone("client", "--jars", bundle()), sparkClasspath());
    assertThat(r.exit).as(r.output).isZero();
    assertThat(r.output).contains("joblib4j example: 2 workers").contains("32 folds scored in 2 JVMs")
        .contains("all correct");
  }

  @Test
  void runsInClusterModeWithTheDriverOnTheWorkerAndOnlyTheBundle() throws Exception {
    List<String> args = standalone("cluster", "--jars", bundle(),
        // a real worker's driver has SPARK_HOME/jars; this fake home's is empty
        "--conf", "spark.driver.extraClassPath=" + property("examples.sparkClasspath"),
        "--driver-memory", "768m", "--conf", "spark.standalone.submit.waitAppCompletion=true");
    // Spark 3.5's Worker starts a cluster-mode driver without the --add-opens Spark needs on Java 17
    // (Spark 4 adds them: SPARK-45197); on 3.5 the user passes them, as docs/platforms.md says
    String driverJavaOptions = System.getProperty("examples.clusterDriverJavaOptions", "").trim();
    if (!driverJavaOptions.isEmpty()) {
      args.addAll(List.of("--conf", "spark.driver.extraJavaOptions=" + driverJavaOptions));
    }
    Run r = submit(masterUrl, args, sparkClasspath());
    // spark-submit only relays the driver's final state; its output is in the worker's driver folder
    assertThat(r.output).contains("is FINISHED");
    String driver = driverOutput(r.output);
    assertThat(driver).contains("joblib4j example: 2 workers").contains("32 folds scored in 2 JVMs")
        .contains("all correct");
  }

  @Test
  void executorsWithoutTheBundleFailTheCallWithAMessageNamingIt() throws Exception {
    // the driver has joblib4j on its class path (what --driver-class-path does through spark-class),
    // the executors get nothing: no --jars
    String driverClasspath = sparkClasspath() + File.pathSeparator + bundle();
    Run r = submit(masterUrl, standalone("client"), driverClasspath);
    assertThat(r.exit).as(r.output).isNotZero();
    assertThat(r.output)
        // the first joblib4j class an executor meets is whichever the job's closure names first
        // (the partition function of the driver channel's job today): the message names that one
        .containsPattern("joblib4j: the Spark executors cannot load joblib4j \\((io\\.joblib4j\\.[\\w.$]+) is missing there\\)")
        .contains("spark-submit --jars " + property("examples.bundleArtifact") + ".jar")
        .contains("Caused by: org.apache.spark.SparkException: Job aborted due to stage failure")
        .containsPattern("java\\.lang\\.ClassNotFoundException: io\\.joblib4j\\.");
  }

  private record Run(int exit, String output) {}

  private static List<String> standalone(String deployMode, String... more) {
    List<String> args = new ArrayList<>(List.of("--deploy-mode", deployMode,
        "--executor-memory", "768m", "--executor-cores", "1", "--total-executor-cores", "2",
        // a real cluster's executors have Spark's jars in SPARK_HOME/jars; this fake home is empty
        "--conf", "spark.executor.extraClassPath=" + property("examples.sparkClasspath"),
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0"));
    args.addAll(Arrays.asList(more));
    return args;
  }

  private static Run submit(String master, List<String> args, String classpath) throws Exception {
    List<String> cmd = new ArrayList<>(java(classpath));
    cmd.addAll(List.of("org.apache.spark.deploy.SparkSubmit", "--master", master,
        "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1"));
    cmd.addAll(args);
    cmd.addAll(List.of("--class", MAIN, property("examples.jar")));
    Path log = work.resolve("submit-" + System.nanoTime() + ".log");
    Process p = start(cmd, log);
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("spark-submit did not finish in 5 minutes:\n" + Files.readString(log));
    }
    return new Run(p.exitValue(), Files.readString(log));
  }

  /** The stdout of the driver a cluster-mode submission named ("Driver successfully submitted as driver-..."). */
  private static String driverOutput(String submitOutput) throws IOException {
    Matcher m = Pattern.compile("submitted as (driver-[\\w-]+)").matcher(submitOutput);
    assertThat(m.find()).as(submitOutput).isTrue();
    Path dir = work.resolve("worker").resolve(m.group(1));
    String stdout = Files.readString(dir.resolve("stdout"));
    return stdout + "\n---- driver stderr ----\n" + Files.readString(dir.resolve("stderr"), StandardCharsets.ISO_8859_1);
  }

  private static List<String> java(String classpath) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx768m");
    cmd.addAll(Arrays.asList(property("examples.sparkJvmFlags").trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(classpath);
    return cmd;
  }

  private static String sparkClasspath() {
    return property("examples.sparkClasspath");
  }

  private static String bundle() {
    return property("examples.bundleJar");
  }

  private static Process start(List<String> cmd, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    environment(pb);
    return pb.start();
  }

  private static void environment(ProcessBuilder pb) {
    Map<String, String> env = pb.environment();
    env.put("SPARK_HOME", property("examples.sparkHome"));
    env.put("SPARK_SCALA_VERSION", property("examples.scalaVersion"));
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
  }

  /** A Master or Worker JVM; its output goes to a log, and {@code ready} completes at the line that says it is up. */
  private record Daemon(Process process, CompletableFuture<Void> ready, Path log) {
    static Daemon start(String mainClass, String readyLine, String... args) throws Exception {
      List<String> cmd = new ArrayList<>(java(sparkClasspath()));
      cmd.add(mainClass);
      cmd.addAll(Arrays.asList(args));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      environment(pb);
      Process p = pb.start();
      Path log = work.resolve(mainClass.substring(mainClass.lastIndexOf('.') + 1) + ".log");
      CompletableFuture<Void> ready = new CompletableFuture<>();
      Thread reader = new Thread(() -> {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer out = Files.newBufferedWriter(log)) {
          for (String line; (line = in.readLine()) != null; ) {
            out.write(line + "\n");
            out.flush();
            if (line.contains(readyLine)) {
              ready.complete(null);
            }
          }
        } catch (IOException e) {
          ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException(mainClass + " exited before \"" + readyLine + "\""));
      }, "log of " + mainClass);
      reader.setDaemon(true);
      reader.start();
      Daemon d = new Daemon(p, ready, log);
      try {
        ready.get(2, TimeUnit.MINUTES);
      } catch (ExecutionException | TimeoutException e) {
        d.stop();
        throw new AssertionError("no \"" + readyLine + "\" from " + mainClass + " (" + e + "):\n"
            + (Files.exists(log) ? Files.readString(log) : "(no log)"), e);
      }
      return d;
    }

    /** Stops the daemon and the executors and drivers it launched. */
    void stop() throws InterruptedException {
      try (Stream<ProcessHandle> children = process.descendants()) {
        children.forEach(ProcessHandle::destroyForcibly);
      }
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static String property(String name) {
    String v = System.getProperty(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException(name + " is not set: run this test through Maven (mvn -pl examples -am verify, or a Spark line's module)");
    }
    return v;
  }
}
