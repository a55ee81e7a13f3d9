package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code backend("spark")} in a JVM where no Spark runs — a program started with plain {@code
 * java} instead of spark-submit — says what to do, instead of Spark's bare "A master URL must be
 * set". It needs a JVM of its own: the tests' JVM runs a SparkContext, which the backend would find.
 */
class NoSparkSessionTest {

  /** The program: a spark call with no Spark started; prints what it got. */
  public static void main(String[] args) {
    try (Parallel p = Parallel.builder().backend("spark").build()) {
      p.run(List.of(delayed(() -> 1)));
      System.out.println("RESULT no error");
    } catch (Throwable t) {
      System.out.println("RESULT " + t.getClass().getName() + ": " + t.getMessage());
    }
  }

  @Test
  void backendSparkWithoutASessionSaysHowToStartOneOrWhatElseToUse() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("-Xmx")).toList());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(NoSparkSessionTest.class.getName());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String result = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElse(output);
    assertThat(result)
        .startsWith("RESULT java.lang.IllegalStateException: backend(\"spark\") runs tasks on the executors of a running Spark")
        .contains("A master URL must be set") // Spark's own reason, kept
        .contains("SparkSession.builder().master(\"local[*]\").getOrCreate()")
        .contains("spark-submit")
        .contains("backend(new SparkBackend(spark))")
        .contains("backend(\"threads\")");
  }
}
