package io.joblib4j.spark.bench;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spark.internal.ChannelStats;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * joblib4j's spark backend beside a hand-written {@code parallelize(...).map(...).collect()} on
 * the same SparkContext, in one run, alternating the two so that machine noise hits both alike.
 * Prints medians and the ratio. Run it with {@code mvn -B -q -pl spark-backend -am verify
 * -Pspark-bench -DskipTests} (see BENCHMARKS.md).
 */
public final class SparkBenchmark {
  private SparkBenchmark() {}

  public static void main(String[] args) throws Exception {
    String only = System.getProperty("bench.only", "all");
    if (only.equals("channels")) {
      channels();
      return;
    }
    if (!only.equals("shared")) {
      onLocal();
    }
    if (!only.equals("local")) {
      sharedArrayOnLocalCluster();
    }
  }

  // ---- the driver channel: plain, sealed, and the job path, beside raw RDD code -----------------

  static int fiftyMillis(int x) throws InterruptedException {
    Thread.sleep(50);
    return x;
  }

  /**
   * 10,000 tiny tasks and 64 tasks of 50 ms, each way a call can reach the executors, beside raw
   * RDD code, round by round in one run: on local[2] (plain, sealed with driver.encryption=always,
   * the job path), then on local-cluster[2,1,1024] with Spark's own authentication and network
   * encryption on (raw RDD code pays for those too; joblib4j's channel is sealed because Spark's
   * RPC is) and the job path there.
   */
  private static void channels() throws Exception {
    JavaSparkContext local = new JavaSparkContext(new SparkConf().setMaster("local[2]")
        .setAppName("joblib4j-bench-channels").set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    try (SparkBackend plain = new SparkBackend(local.sc(), java.util.Map.of("channel", "driver"));
        SparkBackend sealed = new SparkBackend(local.sc(), java.util.Map.of("channel", "driver", "driver.encryption", "always"));
        SparkBackend job = new SparkBackend(local.sc(), java.util.Map.of("channel", "job"))) {
      channelWorkloads("local[2]", local, new String[] {"driver, plain", "driver, sealed", "job path"},
          new SparkBackend[] {plain, sealed, job});
    } finally {
      local.stop();
    }
    byte[] secret = new byte[32];
    new java.security.SecureRandom().nextBytes(secret);
    SparkConf conf = new SparkConf().setMaster("local-cluster[2,1,1024]").setAppName("joblib4j-bench-channels-secure")
        .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1")
        .set("spark.executor.memory", "768m").set("spark.executor.cores", "1")
        .set("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .set("spark.executor.extraClassPath", System.getProperty("bench.sparkClasspath"))
        .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .set("spark.authenticate", "true").set("spark.authenticate.secret", java.util.HexFormat.of().formatHex(secret))
        .set("spark.network.crypto.enabled", "true")
        .setJars(System.getProperty("bench.jars").split(java.io.File.pathSeparator));
    JavaSparkContext cluster = new JavaSparkContext(conf);
    try (SparkBackend direct = new SparkBackend(cluster.sc(), java.util.Map.of("channel", "driver"));
        SparkBackend job = new SparkBackend(cluster.sc(), java.util.Map.of("channel", "job"))) {
      cluster.parallelize(List.of(1, 2), 2).count(); // both executors up before timing
      channelWorkloads("local-cluster, Spark auth + crypto", cluster, new String[] {"driver, sealed", "job path"},
          new SparkBackend[] {direct, job});
    } finally {
      cluster.stop();
    }
  }

  private static void channelWorkloads(String where, JavaSparkContext jsc, String[] names, SparkBackend[] backends) {
    List<Integer> tinyIn = IntStream.range(0, 10_000).boxed().collect(Collectors.toList());
    List<Integer> tinyOut = tinyIn.stream().map(SparkBenchmark::tiny).collect(Collectors.toList());
    List<Integer> slowIn = IntStream.range(0, 64).boxed().collect(Collectors.toList());
    List<String> labels = new ArrayList<>(List.of("raw RDD"));
    labels.addAll(List.of(names));
    List<Supplier<List<Integer>>> tiny = new ArrayList<>();
    List<Supplier<List<Integer>>> slow = new ArrayList<>();
    tiny.add(() -> jsc.parallelize(tinyIn, 2).map(SparkBenchmark::tiny).collect());
    slow.add(() -> jsc.parallelize(slowIn, 2).map(SparkBenchmark::fiftyMillis).collect());
    for (SparkBackend b : backends) {
      tiny.add(() -> {
        try (Parallel p = Parallel.builder().backend(b).nJobs(-1).build()) {
          return p.map(SparkBenchmark::tiny, tinyIn);
        }
      });
      slow.add(() -> {
        try (Parallel p = Parallel.builder().backend(b).nJobs(-1).build()) {
          return p.map(SparkBenchmark::fiftyMillis, slowIn);
        }
      });
    }
    compareAll(where + ": 10,000 tiny tasks", 10, 30, labels, tiny, tinyOut);
    compareAll(where + ": 64 tasks of 50 ms", 2, 7, labels, slow, slowIn);
  }

  /** Every variant once per round, the order rotating round by round; medians, and ratios to the first. */
  private static <T> void compareAll(String name, int warmup, int rounds, List<String> labels,
      List<Supplier<List<T>>> variants, List<T> expected) {
    int n = variants.size();
    long[][] nanos = new long[n][rounds];
    for (int r = -warmup; r < rounds; r++) {
      for (int k = 0; k < n; k++) {
        int v = Math.floorMod(k + r, n);
        long t0 = System.nanoTime();
        List<T> out = variants.get(v).get();
        long t = System.nanoTime() - t0;
        if (!out.equals(expected)) {
          throw new AssertionError(name + ", " + labels.get(v) + ": wrong results");
        }
        if (r >= 0) {
          nanos[v][r] = t;
        }
      }
    }
    double base = median(nanos[0]);
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "BENCH %s (medians of %d):", name, rounds));
    for (int v = 0; v < n; v++) {
      double m = median(nanos[v]);
      line.append(String.format(Locale.ROOT, "   %s %.1f ms", labels.get(v), m / 1e6));
      if (v > 0) {
        line.append(String.format(Locale.ROOT, " (%.2f)", m / base));
      }
    }
    System.out.println(line);
  }

  // ---- 10,000 tiny tasks and 64 tasks of 100 ms on local[2] ----------------------------------

  static int tiny(int x) {
    return x * 31 + 7;
  }

  static int hundredMillis(int x) throws InterruptedException {
    Thread.sleep(100);
    return x;
  }

  private static void onLocal() throws Exception {
    JavaSparkContext jsc = new JavaSparkContext(new SparkConf().setMaster("local[2]")
        .setAppName("joblib4j-bench").set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1"));
    try (SparkBackend spark = new SparkBackend(jsc); Parallel p = Parallel.builder().backend(spark).nJobs(-1).build()) {
      List<Integer> tinyIn = IntStream.range(0, 10_000).boxed().collect(Collectors.toList());
      List<Integer> expected = tinyIn.stream().map(SparkBenchmark::tiny).collect(Collectors.toList());
      compare("10,000 tiny tasks", 10, 30,
          () -> jsc.parallelize(tinyIn).map(SparkBenchmark::tiny).collect(),
          () -> p.map(SparkBenchmark::tiny, tinyIn), expected);

      List<Integer> slowIn = IntStream.range(0, 64).boxed().collect(Collectors.toList());
      compare("64 tasks of 100 ms", 2, 7,
          () -> jsc.parallelize(slowIn).map(SparkBenchmark::hundredMillis).collect(),
          () -> p.map(SparkBenchmark::hundredMillis, slowIn), slowIn);
    } finally {
      jsc.stop();
    }
  }

  private static <T> void compare(String name, int warmup, int rounds, Supplier<List<T>> raw,
      Supplier<List<T>> joblib, List<T> expected) {
    long[] rawNanos = new long[rounds];
    long[] joblibNanos = new long[rounds];
    for (int r = -warmup; r < rounds; r++) {
      long t0 = System.nanoTime();
      List<T> a = raw.get();
      long t1 = System.nanoTime();
      List<T> b = joblib.get();
      long t2 = System.nanoTime();
      if (!a.equals(expected) || !b.equals(expected)) {
        throw new AssertionError(name + ": wrong results");
      }
      if (r >= 0) {
        rawNanos[r] = t1 - t0;
        joblibNanos[r] = t2 - t1;
      }
    }
    double rawMs = median(rawNanos) / 1e6;
    double joblibMs = median(joblibNanos) / 1e6;
    System.out.printf(Locale.ROOT, "BENCH %-22s raw RDD %8.1f ms   joblib4j spark %8.1f ms   ratio %.2f   (medians of %d)%n",
        name, rawMs, joblibMs, joblibMs / rawMs, rounds);
  }

  // ---- 8 tasks sharing one 400 MB array, executors in separate JVMs ---------------------------

  /** The shared argument; counts, per JVM, how often it is deserialized. */
  public static final class Blob implements Serializable {
    @Serial private static final long serialVersionUID = 1L;
    static int deserialized;
    final double[] data;

    Blob(int length) {
      data = new double[length];
      Arrays.fill(data, 1.0);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      synchronized (Blob.class) {
        deserialized++; // once per JVM if the argument is shared, once per task if not
      }
    }

    static synchronized int count() {
      return deserialized;
    }
  }

  static String useBlob(Blob blob, int i) {
    double s = 0;
    for (int k = i; k < blob.data.length; k += 4096) {
      s += blob.data[k];
    }
    return ProcessHandle.current().pid() + ":" + Blob.count() + ":" + (long) s;
  }

  private static void sharedArrayOnLocalCluster() throws Exception {
    String jars = System.getProperty("bench.jars");
    SparkConf conf = new SparkConf().setMaster("local-cluster[2,1,3072]").setAppName("joblib4j-bench-shared")
        .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1")
        .set("spark.executor.memory", "3g").set("spark.executor.cores", "1")
        .set("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .set("spark.executor.extraClassPath", System.getProperty("bench.sparkClasspath"))
        .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .set("spark.driver.maxResultSize", "0")
        .setJars(jars.split(java.io.File.pathSeparator));
    JavaSparkContext jsc = new JavaSparkContext(conf);
    try (SparkBackend spark = new SparkBackend(jsc)) {
      Blob blob = new Blob(50_000_000); // 400 MB of doubles
      List<Integer> eight = IntStream.range(0, 8).boxed().collect(Collectors.toList());
      jsc.parallelize(eight, 2).map(i -> i).collect(); // both executors up before timing
      java.util.Map<String, Integer> seen = new java.util.TreeMap<>();
      // rounds of the broadcast run beside hand-written code, which goes first every other round so
      // that neither always follows the other's garbage; one run without sharing (it costs half a
      // minute and only shows what sharing saves)
      int rounds = Integer.getInteger("bench.sharedRounds", 7);
      long[] rawNanos = new long[rounds];
      long[] joblibNanos = new long[rounds];
      for (int round = 0; round < rounds; round++) {
        if (round % 2 == 1) {
          rawNanos[round] = sharedRaw(jsc, blob, eight, seen);
        }
        joblibNanos[round] = sharedJoblib(spark, blob, eight, seen);
        if (round % 2 == 0) {
          rawNanos[round] = sharedRaw(jsc, blob, eight, seen);
        }
      }
      // times here are bimodal (an executor's full GC of the previous round's 400 MB lands in one
      // round or another), so the round-by-round ratio and the minima say more than the medians
      double[] roundRatios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        roundRatios[r] = (double) joblibNanos[r] / rawNanos[r];
      }
      Arrays.sort(roundRatios);
      System.out.printf(Locale.ROOT, "BENCH shared 400 MB, medians: raw RDD + sc.broadcast %.1f s   joblib4j %.1f s   ratio %.2f;"
          + "   minima %.2f s vs %.2f s, ratio %.2f;   median of the round-by-round ratios %.2f%n",
          median(rawNanos) / 1e9, median(joblibNanos) / 1e9, median(joblibNanos) / median(rawNanos),
          Arrays.stream(rawNanos).min().getAsLong() / 1e9, Arrays.stream(joblibNanos).min().getAsLong() / 1e9,
          (double) Arrays.stream(joblibNanos).min().getAsLong() / Arrays.stream(rawNanos).min().getAsLong(),
          roundRatios[rounds / 2]);
      long bytes0 = ChannelStats.batchBytes();
      long t0 = System.nanoTime();
      List<String> out;
      try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).maxNbytes("none").build()) {
        out = p.run(eight.stream().map(i -> delayed(SparkBenchmark::useBlob, blob, i)));
      }
      long t1 = System.nanoTime();
      System.out.printf(Locale.ROOT, "BENCH shared 400 MB, joblib4j (maxNbytes none)   %6.1f s   batches %7.1f MB"
          + "   deserializations per executor JVM: %s%n", (t1 - t0) / 1e9, (ChannelStats.batchBytes() - bytes0) / 1e6,
          perJvm(out, seen));
    } finally {
      jsc.stop();
    }
  }

  private static long sharedJoblib(SparkBackend spark, Blob blob, List<Integer> eight, java.util.Map<String, Integer> seen) {
    long bytes0 = ChannelStats.batchBytes();
    long broadcasts0 = ChannelStats.broadcasts();
    long t0 = System.nanoTime();
    List<String> out;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      out = p.run(eight.stream().map(i -> delayed(SparkBenchmark::useBlob, blob, i)));
    }
    long t1 = System.nanoTime();
    System.out.printf(Locale.ROOT, "BENCH shared 400 MB, joblib4j (broadcast)        %6.1f s   batches %7.1f MB +"
        + " %d broadcast(s)   deserializations per executor JVM: %s%n", (t1 - t0) / 1e9,
        (ChannelStats.batchBytes() - bytes0) / 1e6, ChannelStats.broadcasts() - broadcasts0, perJvm(out, seen));
    return t1 - t0;
  }

  private static long sharedRaw(JavaSparkContext jsc, Blob blob, List<Integer> eight, java.util.Map<String, Integer> seen) {
    long t0 = System.nanoTime();
    Broadcast<Blob> b = jsc.broadcast(blob);
    List<String> raw = jsc.parallelize(eight, 8).map(i -> useBlob(b.value(), i)).collect();
    long t1 = System.nanoTime();
    b.destroy();
    System.out.printf(Locale.ROOT, "BENCH shared 400 MB, raw RDD + sc.broadcast      %6.1f s   deserializations per"
        + " executor JVM: %s%n", (t1 - t0) / 1e9, perJvm(raw, seen));
    return t1 - t0;
  }

  /**
   * Executor pid -> deserializations during this run. The counters are per JVM and cumulative, so
   * {@code seen} keeps each JVM's count after the previous runs.
   */
  private static String perJvm(List<String> out, java.util.Map<String, Integer> seen) {
    java.util.Map<String, Integer> now = new java.util.TreeMap<>();
    for (String s : new ArrayList<>(out)) {
      String[] f = s.split(":");
      now.merge(f[0], Integer.parseInt(f[1]), Math::max);
    }
    java.util.Map<String, Integer> delta = new java.util.TreeMap<>();
    now.forEach((pid, n) -> delta.put(pid, n - seen.getOrDefault(pid, 0)));
    seen.putAll(now);
    return delta.toString();
  }

  private static double median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
  }
}
