package io.joblib4j.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the checks know of the build that ran them: the published modules, paths, and how to run tools. */
final class Release {
  private Release() {}

  /** A module published to Maven Central: its artifactId, its Java module name, its jar in this build. */
  record Published(String artifactId, String moduleName, Path jar) {}

  /**
   * Every published module. A new one is added here (and to the README's table of artifacts, which
   * {@code FreshProjectIT} compares with this list).
   */
  static List<Published> modules() {
    return List.of(
        new Published("joblib4j-engine-api", "io.joblib4j", path("release.engineApiJar")),
        new Published("joblib4j-scala_2.13", "io.joblib4j.scala", path("release.scalaJar")),
        new Published("joblib4j-spark-backend_2.13", "io.joblib4j.spark", path("release.sparkBackendJar")),
        new Published("joblib4j-hdfs-store", "io.joblib4j.hdfs", path("release.hdfsStoreJar")),
        new Published("joblib4j-stage-cache_2.13", "io.joblib4j.spark.stages", path("release.stageCacheJar")),
        new Published("joblib4j-spark-connect_2.13", "io.joblib4j.spark.connect", path("release.sparkConnectJar")),
        new Published("joblib4j-spark-4-bundle_2.13", "io.joblib4j.spark.bundle", path("release.sparkBundleJar")),
        new Published("joblib4j-cli", "io.joblib4j.cli", path("release.cliJar")));
  }

  static String property(String key) {
    String value = System.getProperty(key);
    assertThat(value).as("system property " + key + " (set by release-checks/pom.xml)").isNotBlank();
    return value;
  }

  static Path path(String key) {
    return Path.of(property(key));
  }

  /** The repository's root folder (LICENSE, README.md, the root pom). */
  static Path root() {
    return path("release.root");
  }

  static String version() {
    return property("release.version");
  }

  /** A new, empty folder under target for one check. */
  static Path freshFolder(String name) throws IOException {
    Path dir = path("release.workDir").resolve(name);
    delete(dir);
    Files.createDirectories(dir);
    return dir;
  }

  static void delete(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** The mvn launcher of the Maven running this build. */
  static String mvn() {
    Path bin = path("release.mavenHome").resolve("bin");
    boolean windows = System.getProperty("os.name").startsWith("Windows");
    return bin.resolve(windows ? "mvn.cmd" : "mvn").toString();
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** How a command ended: its exit code and what it printed (stdout and stderr together). */
  record Outcome(int exitCode, String output) {
    /** The last lines of the output, for an assertion's message. */
    String tail() {
      List<String> lines = output.lines().toList();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
  }

  /** Runs {@code command} in {@code dir}, its output to {@code log}; fails the test after {@code minutes}. */
  static Outcome run(List<String> command, Path dir, Map<String, String> env, Path log, int minutes)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not end within " + minutes + " minutes; see " + log);
    }
    return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
