package io.joblib4j.yarn;

import io.joblib4j.bundle.Bundle;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code spark-submit --master yarn} as a user runs it, in a child JVM with no Spark distribution:
 * {@code org.apache.spark.deploy.SparkSubmit} on Spark's jars ({@link Bundle#sparkClasspath}) and the
 * cluster's client configuration, joblib4j only as {@code --jars} the bundle ({@link Bundle#jar}).
 * The containers take Spark's jars from local disk ({@code spark.yarn.jars=local:...}), as a
 * cluster whose nodes have Spark installed does; nothing but the bundle and the application jar is
 * uploaded.
 */
final class SparkSubmit {
  /** A submission's end: spark-submit's exit code and its output's log. */
  record Exit(int code, Path log) {
    /** The output's last 200 lines, for a failure message. */
    String tail() throws IOException {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 200), lines.size()));
    }
  }

  /** Generous: one submission takes 15-20 s on an idle machine, and was seen taking over 5 minutes on a loaded one. */
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private final Path confDir;
  private final Path logs;

  SparkSubmit(Path confDir, Path logs) {
    this.confDir = confDir;
    this.logs = logs;
  }

  /**
   * Submits {@link YarnJob} with {@code jobArgs} in {@code deployMode}, tagged {@code tag} (YARN
   * lower-cases tags), and waits for spark-submit to end: in cluster mode it waits for the
   * application only if {@code waitForApp}.
   */
  Exit submit(String deployMode, String tag, boolean waitForApp, String... jobArgs)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.addAll(Arrays.asList(property("yarn.sparkJvmFlags").trim().split("\\s+")));
    cmd.add("-cp");
    cmd.add(confDir + File.pathSeparator
        + Bundle.sparkClasspath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
    cmd.add("org.apache.spark.deploy.SparkSubmit");
    cmd.addAll(List.of("--master", "yarn", "--deploy-mode", deployMode,
        "--name", "joblib4j-yarn-it " + tag,
        "--num-executors", "2", "--executor-cores", "1",
        "--executor-memory", "512m", "--driver-memory", "512m",
        "--conf", "spark.yarn.am.memory=512m",
        "--conf", "spark.yarn.tags=" + tag,
        "--conf", "spark.yarn.maxAppAttempts=1",
        "--conf", "spark.yarn.submit.waitAppCompletion=" + waitForApp,
        "--conf", "spark.yarn.jars=" + Bundle.sparkClasspath().stream().map(p -> "local:" + p)
            .collect(Collectors.joining(",")),
        "--conf", "spark.ui.enabled=false",
        // both executors before the first job if they come within Spark's wait (30 s); nJobs(-1) counts
        // the two asked for either way (TaskSlots)
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "--conf", "spark.yarn.appMasterEnv.SPARK_LOCAL_IP=127.0.0.1",
        "--conf", "spark.executorEnv.SPARK_LOCAL_IP=127.0.0.1",
        "--jars", Bundle.jar().toString(),
        "--class", YarnJob.class.getName(), property("yarn.appJar")));
    cmd.addAll(Arrays.asList(jobArgs));
    Files.createDirectories(logs);
    Path log = logs.resolve("spark-submit-" + tag + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = pb.environment();
    env.put("HADOOP_CONF_DIR", confDir.toString());
    env.put("YARN_CONF_DIR", confDir.toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("spark-submit did not end in " + TIMEOUT + ":\n" + new Exit(-1, log).tail());
    }
    return new Exit(p.exitValue(), log);
  }

  private static String property(String name) {
    String v = System.getProperty(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("system property " + name + " is not set: run this test through Maven"
          + " (mvn -pl yarn-it -am verify)");
    }
    return v;
  }
}
