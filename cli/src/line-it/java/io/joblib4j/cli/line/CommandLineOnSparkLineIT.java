package io.joblib4j.cli.line;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.joblib4j.Memory;
import io.joblib4j.spark.stages.StageCache;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's {@code -spark} jar, built once for every line, run as a data engineer runs it on
 * their cluster: {@code spark-submit --class io.joblib4j.cli.Main} on the class path of the Spark line
 * under test ({@code cli.sparkVersion}, Scala {@code cli.scalaVersion}), over a Memory cache and a
 * stage cache that this line's joblib4j wrote.
 */
class CommandLineOnSparkLineIT {
  private static SparkSession spark;
  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[1]").appName("joblib4j-cli-on-line").config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1").config("spark.sql.shuffle.partitions", "1").getOrCreate();
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  public static int square(int x) {
    return x * x;
  }

  public static Dataset<Row> evens(Dataset<Row> raw) {
    return raw.filter(col("id").mod(2).equalTo(0));
  }

  @Test
  void sparkSubmitListsSizesAndVerifiesAMemoryCacheAndListsAStageCache() throws Exception {
    assertThat(spark.version()).as("the Spark line this module tests").isEqualTo(property("cli.sparkVersion"));
    Path memoryCache = dir.resolve("memory");
    Memory memory = Memory.builder(memoryCache).verbose(0).build();
    var squared = memory.cache(CommandLineOnSparkLineIT::square);
    for (int i = 1; i <= 3; i++) {
      squared.apply(i);
    }
    String stageCache = dir.resolve("stages").toString();
    StageCache.at(spark, stageCache).cache(CommandLineOnSparkLineIT::evens).apply(spark.range(0, 100, 1, 2).toDF()).count();

    Child ls = sparkSubmit("ls", memoryCache.toString(), "--json");
    assertThat(ls.code()).as(ls.toString()).isZero();
    assertThat(json(ls).get("entryCount").asInt()).as(ls.toString()).isEqualTo(3);
    Child verify = sparkSubmit("verify", memoryCache.toString());
    assertThat(verify.code()).as(verify.toString()).isZero();
    Child stages = sparkSubmit("stages", "ls", stageCache, "--json");
    assertThat(stages.code()).as(stages.toString()).isZero();
    JsonNode entries = json(stages).get("entries");
    assertThat(entries).as(stages.toString()).hasSize(1);
    assertThat(entries.get(0).get("rows").asLong()).isEqualTo(50);
  }

  private static JsonNode json(Child c) throws Exception {
    return new ObjectMapper().readTree(c.out());
  }

  record Child(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr (end)\n" + err.substring(Math.max(0, err.length() - 8000));
    }
  }

  /** {@code spark-submit --class io.joblib4j.cli.Main joblib4j-cli-spark.jar ARGS} on local[1]. */
  private static Child sparkSubmit(String... args) throws Exception {
    Path home = Files.createDirectories(dir.resolve("spark-home").resolve("jars")).getParent();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
    for (String flag : property("cli.sparkJvmFlags").trim().split("\\s+")) {
      if (!flag.isEmpty()) {
        cmd.add(flag);
      }
    }
    cmd.addAll(List.of("-cp", property("cli.sparkClasspath"), "org.apache.spark.deploy.SparkSubmit",
        "--master", "local[1]", "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
        "--class", "io.joblib4j.cli.Main", property("cli.sparkJar")));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("HADOOP_CONF_DIR");
    pb.environment().put("SPARK_HOME", home.toString());
    pb.environment().put("SPARK_SCALA_VERSION", property("cli.scalaVersion"));
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = pb.start();
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(String.join(" ", cmd) + " ended").isTrue();
    return new Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String property(String name) {
    String v = System.getProperty(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException(name + " is not set: run this test through Maven, from a Spark line's module");
    }
    return v;
  }
}
