package io.joblib4j.compat;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import io.joblib4j.bundle.Bundle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle, built against the newest Spark, on an older Spark line's jars with executors in two
 * separate JVMs (local-cluster[2,1,1024]). joblib4j reaches the driver and the executors only as
 * the bundle jar (setJars, what spark-submit --jars does); the executors' class path is that
 * line's jars and nothing else.
 */
class SparkLineIT {
  private static final long DRIVER_PID = ProcessHandle.current().pid();
  private static SparkSession spark;

  @TempDir static Path work;

  @BeforeAll
  static void start() {
    String sparkClasspath = String.join(java.io.File.pathSeparator,
        Bundle.sparkClasspath().stream().map(Path::toString).toList());
    SparkConf conf = new SparkConf()
        .setMaster("local-cluster[2,1,1024]")
        .setAppName("joblib4j-compat")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.executor.memory", "768m")
        .set("spark.executor.cores", "1")
        .set("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .set("spark.executor.extraClassPath", sparkClasspath)
        .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .setJars(new String[] {Bundle.jar().toString(), System.getProperty("compat.testsJar")});
    spark = SparkSession.builder().config(conf).getOrCreate();
    // both executors' block managers registered with the driver (what nJobs(-1) counts); a first job
    // is no proof: its tasks can all run on the executor that came first
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
    while (spark.sparkContext().getExecutorMemoryStatus().size() < 3) {
      assertThat(System.nanoTime()).as("2 executors registered within 3 minutes").isLessThan(deadline);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void runsOnTheSparkLineUnderTestWithTheLibraryVersionsItShips() {
    assertThat(spark.version()).isEqualTo(System.getProperty("bundle.sparkVersion"));
    assertThat(VersionInfo.getVersion()).isEqualTo(System.getProperty("compat.hadoopVersion"));
    assertThat(PackageVersion.VERSION.toString()).isEqualTo(System.getProperty("compat.jacksonVersion"));
    assertThat(codeSource(Parallel.class)).as("the driver's joblib4j").isEqualTo(Bundle.jar().getFileName().toString());
  }

  /** Where a fold ran: the pid and the jar joblib4j's classes came from there. */
  record Placement(int fold, long pid, String joblib4jJar) implements Serializable {}

  static Placement place(int fold) throws InterruptedException {
    Thread.sleep(40); // long enough that both workers get folds
    return new Placement(fold, ProcessHandle.current().pid(), codeSource(Parallel.class));
  }

  @Test
  void theSparkBackendFoundThroughServiceLoaderRunsTestClassesInTheExecutorJvms() {
    List<Integer> folds = IntStream.range(0, 24).boxed().toList();
    List<Placement> out;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).batchSize(1).build()) {
      assertThat(p.effectiveNJobs()).isEqualTo(2);
      out = p.map(SparkLineIT::place, folds);
    }
    assertThat(out).extracting(Placement::fold).isEqualTo(folds);
    assertThat(out.stream().map(Placement::pid).collect(Collectors.toSet())).doesNotContain(DRIVER_PID).hasSize(2);
    assertThat(out).extracting(Placement::joblib4jJar).as("joblib4j on the executors is the shipped bundle")
        .allMatch(jar -> jar.startsWith("joblib4j-spark-4-bundle"));
  }

  /** An argument over maxNbytes (1 MiB); counts its deserializations in each JVM. */
  static final class Model implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    static final AtomicInteger DESERIALIZED = new AtomicInteger();
    final double[] weights = new double[300_000];

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      DESERIALIZED.incrementAndGet();
    }
  }

  static long[] pidAndDeserializations(Model model, int fold) throws InterruptedException {
    Thread.sleep(40);
    return new long[] {ProcessHandle.current().pid(), Model.DESERIALIZED.get(), model.weights.length + fold};
  }

  @Test
  void aLargeArgumentIsBroadcastAndDeserializedOncePerExecutor() {
    Model model = new Model();
    List<long[]> out;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).batchSize(1).build()) {
      out = p.run(IntStream.range(0, 10).mapToObj(i -> delayed(SparkLineIT::pidAndDeserializations, model, i)));
    }
    Map<Long, Long> most = new HashMap<>();
    for (long[] r : out) {
      most.merge(r[0], r[1], Math::max);
    }
    assertThat(most.keySet()).doesNotContain(DRIVER_PID);
    assertThat(most.values()).as("deserializations of the model per executor JVM").containsOnly(1L);
  }

  /** A failure type that exists only in the tests jar. */
  static final class FoldRejected extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    FoldRejected(String message) {
      super(message);
    }
  }

  static int rejectFive(int fold) throws FoldRejected {
    if (fold == 5) {
      throw new FoldRejected("fold " + fold + " rejected");
    }
    return fold;
  }

  @Test
  void aTaskFailureComesBackAsTheOriginalExceptionWithTheExecutorsStack() {
    Throwable t;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).batchSize(1).build()) {
      t = catchThrowable(() -> p.map(SparkLineIT::rejectFive, IntStream.range(0, 8).boxed().toList()));
    }
    assertThat(t).isInstanceOf(FoldRejected.class).hasMessage("fold 5 rejected");
    assertThat(Arrays.stream(t.getStackTrace()).map(StackTraceElement::toString))
        .anyMatch(s -> s.contains("SparkLineIT.rejectFive")).anyMatch(s -> s.contains("ServingLoop.serve"));
  }

  /** A cached result of a type the data codec does not know: Kryo 5 (relocated in the bundle) stores it. */
  static final class Fitted implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    final int key;
    final double[] coefficients;

    Fitted(int key, double[] coefficients) {
      this.key = key;
      this.coefficients = coefficients;
    }
  }

  static Fitted fit(String calls, Integer key) {
    try {
      Files.createFile(Path.of(calls).resolve(key + "-" + UUID.randomUUID())); // one file per computation, whichever JVM
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Fitted(key, IntStream.range(0, 1000).mapToDouble(i -> Math.sin(key * 1000 + i)).toArray());
  }

  @Test
  void memoryOnLocalDiskIsWrittenByTheExecutorsAndReusedByTheNextCall() throws IOException {
    Path calls = Files.createDirectories(work.resolve("calls"));
    Memory memory = Memory.builder(work.resolve("cache")).compress(Compress.of("zstd", 3)).build();
    String callsDir = calls.toString(); // a Path is not Serializable
    MemoizedFn1<Integer, Fitted> cached = memory.cache(key -> fit(callsDir, key));
    List<Fitted> first;
    List<Fitted> second;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).batchSize(1).build()) {
      first = p.run(IntStream.range(0, 6).mapToObj(k -> delayed(cached, k)));
      second = p.run(IntStream.range(0, 6).mapToObj(k -> delayed(cached, k)));
    }
    try (Stream<Path> computed = Files.list(calls)) {
      assertThat(computed.count()).as("computations: the second call loads every result").isEqualTo(6);
    }
    for (int k = 0; k < 6; k++) {
      assertThat(second.get(k).key).isEqualTo(k);
      assertThat(second.get(k).coefficients).isEqualTo(first.get(k).coefficients);
    }
    assertThat(cached.checkCallInCache(3)).isTrue();
    assertThat(cached.apply(3).coefficients).as("the driver loads what an executor stored").isEqualTo(first.get(3).coefficients);
  }

  /** dump and load with one codec, in whichever JVM runs it, and the value's hash there. */
  static String roundTripAndHash(String codec, double[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(value, out, Compress.of(codec, 3));
    double[] back = Joblib.load(new ByteArrayInputStream(out.toByteArray()));
    return (Arrays.equals(back, value) ? "ok " : "DIFFERS ") + Joblib.hash(value);
  }

  @Test
  void everyCodecAndTheHashWorkWithTheLibrariesThisSparkShips() {
    double[] value = IntStream.range(0, 50_000).mapToDouble(i -> i % 97 / 7.0).toArray();
    List<String> codecs = List.of("zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zstd");
    List<String> out;
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).build()) {
      out = p.run(codecs.stream().map(c -> delayed(SparkLineIT::roundTripAndHash, c, value)));
    }
    assertThat(Set.copyOf(out)).as("every codec round-trips on the executors, and the hash there is the driver's")
        .containsExactly("ok " + Joblib.hash(value));
  }

  /** The file name of the jar a class was loaded from. */
  static String codeSource(Class<?> c) {
    String path = c.getProtectionDomain().getCodeSource().getLocation().getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
