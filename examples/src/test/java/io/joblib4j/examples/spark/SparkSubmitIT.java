package io.joblib4j.examples.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example jar through org.apache.spark.deploy.SparkSubmit in a child JVM, as a user's
 * spark-submit does, with no Spark distribution: the class path is Spark's jars from Maven, and
 * joblib4j arrives with {@code --jars}. Once on local[2], once on a standalone Master and Worker
 * that this test starts as two more JVMs.
 */
class SparkSubmitIT {
  private static final String MAIN = "io.joblib4j.examples.spark.SparkScoring";

  @TempDir Path work;

  @Test
  void theExampleRunsUnderSparkSubmitOnLocal() throws Exception {
    Run r = submit("local[2]", List.of());
    assertThat(r.exit).as(r.output).isZero();
    assertThat(r.output).contains("32 folds scored in 1 JVMs").contains("all correct");
  }

  @Test
  void theExampleRunsUnderSparkSubmitOnAStandaloneMasterAndWorker() throws Exception {
    int masterPort = freePort();
    Process master = daemon("org.apache.spark.deploy.master.Master", "master.log",
        "--host", "127.0.0.1", "--port", String.valueOf(masterPort), "--webui-port", String.valueOf(freePort()));
    Process worker = null;
    try {
      awaitLog("master.log", "I have been elected leader", master);
      worker = daemon("org.apache.spark.deploy.worker.Worker", "worker.log",
          "--host", "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", String.valueOf(freePort()),
          "--work-dir", work.resolve("worker").toString(), "spark://127.0.0.1:" + masterPort);
      awaitLog("worker.log", "Successfully registered with master", worker);
      Run r = submit("spark://127.0.0.1:" + masterPort, List.of(
          "--executor-memory", "768m", "--executor-cores", "1", "--total-executor-cores", "2",
          // a real cluster's executors have Spark's jars in SPARK_HOME/jars; this fake home is empty
          "--conf", "spark.executor.extraClassPath=" + property("examples.sparkClasspath"),
          "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0"));
      assertThat(r.exit).as(r.output).isZero();
      assertThat(r.output).contains("joblib4j example: 2 workers").contains("32 folds scored in 2 JVMs")
          .contains("all correct");
    } finally {
      if (worker != null) {
        stop(worker);
      }
      stop(master);
    }
  }

  private record Run(int exit, String output) {}

  private Run submit(String master, List<String> extra) throws Exception {
    List<String> cmd = new ArrayList<>(java());
    cmd.addAll(List.of("org.apache.spark.deploy.SparkSubmit", "--master", master,
        "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1"));
    cmd.addAll(extra);
    cmd.addAll(List.of("--jars", property("examples.joblib4jJars"), "--class", MAIN, property("examples.jar")));
    Path log = work.resolve("submit-" + System.nanoTime() + ".log");
    Process p = start(cmd, log);
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("spark-submit did not finish in 5 minutes:\n" + Files.readString(log));
    }
    return new Run(p.exitValue(), Files.readString(log));
  }

  private Process daemon(String mainClass, String logName, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(java());
    cmd.add(mainClass);
    cmd.addAll(Arrays.asList(args));
    return start(cmd, work.resolve(logName));
  }

  private List<String> java() {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx768m");
    cmd.addAll(Arrays.asList(property("examples.sparkJvmFlags").trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(property("examples.sparkClasspath"));
    return cmd;
  }

  private Process start(List<String> cmd, Path log) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("SPARK_HOME", property("examples.sparkHome"));
    env.put("SPARK_SCALA_VERSION", "2.13");
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    return pb.start();
  }

  private void awaitLog(String logName, String line, Process p) throws Exception {
    Path log = work.resolve(logName);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(line)) {
        return;
      }
      if (!p.isAlive()) {
        break;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no \"" + line + "\" in " + logName + ":\n"
        + (Files.exists(log) ? Files.readString(log) : "(no log)"));
  }

  /** Stops a daemon this test started, and the executors it launched with it. */
  private static void stop(Process p) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroy();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
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
      throw new IllegalStateException(name + " is not set: run this test through Maven (mvn -pl examples -am verify)");
    }
    return v;
  }
}
