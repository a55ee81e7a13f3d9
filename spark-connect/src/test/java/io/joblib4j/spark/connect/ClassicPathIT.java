package io.joblib4j.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classic path never loads a Spark Connect class: a child JVM with classic Spark 4.2, the
 * Connect server and client, and joblib4j with its Connect module all on its class path runs
 * {@code backend("spark")} on {@code local[2]}, and the JVM's own class-loading log is read for
 * every class loaded from the moment joblib4j is first called. Allowed from joblib4j's Connect
 * module: only its {@code BackendProvider}, which {@code ServiceLoader} instantiates with every
 * other provider to learn its name (it names no Connect class).
 */
class ClassicPathIT {
  static final String PROVIDER = "io.joblib4j.spark.connect.internal.ConnectBackendProvider";

  /** The child: a classic session, one plain Spark job, then joblib4j's classic path. */
  public static final class Child {
    public static void main(String[] args) {
      SparkSession spark = SparkSession.builder().master("local[2]").appName("classic-path")
          .config("spark.ui.enabled", "false").getOrCreate();
      System.out.println("session " + spark.getClass().getName() + ", " + spark.range(10).count() + " rows");
      JoblibStarts.now();
      try (Parallel p = Parallel.builder().backend("spark").nJobs(2).build()) {
        System.out.println("RESULT " + p.map((Integer x) -> x + 1, List.of(1, 2, 3)));
      }
      spark.stop();
      System.exit(0);
    }
  }

  /** Loaded just before joblib4j is first called: its line in the log marks the start. */
  static final class JoblibStarts {
    static void now() {
      System.out.println("joblib4j starts");
    }
  }

  @Test
  void theClassicPathLoadsNoSparkConnectClassAndNoneOfJoblib4jsConnectPath(@TempDir Path dir) throws Exception {
    String server = Files.readString(Path.of(System.getProperty("joblib4j.it.serverClasspathFile"))).trim();
    String tests = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path log = dir.resolve("classes.log");
    Path out = dir.resolve("child.out");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-XX:+UseParallelGC", "-Xlog:class+load=info:file=" + log));
    cmd.addAll(Arrays.asList(System.getProperty("joblib4j.it.jvmFlags", "").trim().split("\\s+")));
    cmd.addAll(List.of("-cp", server + File.pathSeparator + tests, Child.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process child = pb.start();
    assertThat(child.waitFor(240, TimeUnit.SECONDS)).as("the child finished").isTrue();
    String output = Files.readString(out);
    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output).contains("session org.apache.spark.sql.classic.SparkSession").contains("RESULT [2, 3, 4]");

    List<String> lines = Files.readAllLines(log);
    int start = 0;
    while (start < lines.size() && !lines.get(start).contains(JoblibStarts.class.getName() + " ")) {
      start++;
    }
    assertThat(start).as("the marker is in the log").isLessThan(lines.size());
    List<String> connect = lines.subList(start, lines.size()).stream()
        .map(ClassicPathIT::className)
        .filter(c -> c.startsWith("org.apache.spark.sql.connect.") || c.startsWith("io.joblib4j.spark.connect.")
            && !c.startsWith(ClassicPathIT.class.getName()) && !c.equals(PROVIDER))
        .toList();
    assertThat(connect).as("Connect classes the classic path loaded").isEmpty();
  }

  /** The class name of a {@code -Xlog:class+load} line: {@code [...][info][class,load] name source: ...}. */
  private static String className(String line) {
    int tag = line.indexOf("[class,load]");
    if (tag < 0) {
      return "";
    }
    String rest = line.substring(tag + "[class,load]".length()).trim();
    int space = rest.indexOf(' ');
    return space < 0 ? rest : rest.substring(0, space);
  }
}
