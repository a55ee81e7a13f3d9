package io.joblib4j.yarn;

import static io.joblib4j.Delayed.delayed;
import static org.apache.spark.sql.functions.col;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import io.joblib4j.Processes;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.hdfs.ChunkedArray;
import io.joblib4j.spark.stages.Stage1;
import io.joblib4j.spark.stages.StageCache;
import io.joblib4j.spi.Backend;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The application YarnSubmitIT submits with {@code spark-submit --master yarn}, joblib4j arriving only
 * through the bundle in {@code --jars}.
 *
 * <p>{@code run LOCATION REPORT}: {@code Parallel} on the spark backend, a {@code Memory} on HDFS
 * called by the executors, a {@code ChunkedArray} the executors fill, a {@code processes}-backend
 * call inside an executor, and a {@code StageCache} stage; then it writes what it computed (and what
 * it found already there) to {@code LOCATION/reports/REPORT.properties} on HDFS, where the test
 * reads it in either deploy mode (a cluster-mode driver's stdout is in a container's log).
 *
 * <p>{@code hold LOCATION}: an executor starts two {@code processes} workers, each of which writes
 * its pid to {@code LOCATION/held/} and then works until YARN kills the application.
 */
public final class YarnJob {
  static final int SHARDS = 8;
  static final int ROWS = 800;
  static final int COLS = 16;
  static final int ROWS_PER_CHUNK = 100;
  static final long STAGE_INPUT_ROWS = 1000;
  /** How many times the stage function ran in this driver (zero on a run that reads the stage back). */
  private static final AtomicInteger STAGE_CALLS = new AtomicInteger();

  private YarnJob() {}

  public static void main(String[] args) throws Exception {
    SparkSession spark = SparkSession.builder().getOrCreate();
    try {
      switch (args[0]) {
        case "run" -> run(spark, args[1], args[2]);
        case "hold" -> hold(args[1]);
        default -> throw new IllegalArgumentException("usage: YarnJob run LOCATION REPORT | hold LOCATION");
      }
    } finally {
      spark.stop();
    }
  }

  static void run(SparkSession spark, String location, String reportName) throws IOException {
    String appId = spark.sparkContext().applicationId();
    Properties report = new Properties();
    report.setProperty("appId", appId);
    report.setProperty("deployMode", spark.sparkContext().deployMode());
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).build()) {
      // 1. plain tasks, each in a YARN container of this application
      report.setProperty("parallel.nJobs", String.valueOf(p.effectiveNJobs()));
      List<String> where = p.run(IntStream.range(0, SHARDS).mapToObj(i -> delayed(YarnJob::where, i)));
      report.setProperty("parallel.tasks", String.valueOf(where.size()));
      // an executor's container, of this application (in cluster mode the driver has one too)
      String appNumber = appId.substring("application_".length());
      report.setProperty("parallel.inExecutorContainers", String.valueOf(where.stream()
          .allMatch(w -> !w.startsWith("driver ") && w.contains(" container_" + appNumber + "_"))));

      // 2. a Memory on HDFS, called on the executors: a result computed here carries this application's id
      Memory memory = Memory.builder(location + "/memory").verbose(0).build();
      MemoizedFn1<Integer, String> step = memory.cache(YarnJob::features);
      List<String> features = p.run(IntStream.range(0, SHARDS).mapToObj(s -> delayed(step, s)));
      report.setProperty("memory.computed", String.valueOf(features.stream().filter(f -> f.startsWith(appId + " ")).count()));
      boolean featuresRight = true;
      for (int s = 0; s < SHARDS; s++) {
        featuresRight &= value(features.get(s)) == featureValue(s);
      }
      report.setProperty("memory.correct", String.valueOf(featuresRight));

      // 3. a ChunkedArray on HDFS, each chunk written by an executor (false: it was there already)
      ChunkedArray scores = ChunkedArray.create(location + "/arrays", "scores", DType.FLOAT64, ROWS_PER_CHUNK, ROWS, COLS);
      List<Boolean> written = p.run(IntStream.range(0, scores.chunks())
          .mapToObj(i -> delayed(YarnJob::fillChunk, scores, step, i)));
      report.setProperty("chunks.total", String.valueOf(scores.chunks()));
      report.setProperty("chunks.written", String.valueOf(written.stream().filter(w -> w).count()));
      report.setProperty("chunks.correct", String.valueOf(scores.isComplete() && holdsExpectedScores(scores)));

      // 4. a processes-backend call inside an executor's container
      String procs = p.run(List.of(delayed(YarnJob::onProcesses, 0))).get(0);
      report.setProperty("processes", procs);
    }

    // 5. a StageCache stage on HDFS
    String input = location + "/events";
    FileSystem fs = FileSystem.get(URI.create(location), spark.sparkContext().hadoopConfiguration());
    if (!fs.exists(new Path(input))) {
      spark.range(0, STAGE_INPUT_ROWS, 1, 2).write().parquet(input);
    }
    Stage1<Dataset<Row>> evens = StageCache.at(spark, location + "/stages").cache(YarnJob::evens);
    report.setProperty("stage.rows", String.valueOf(evens.apply(spark.read().parquet(input)).count()));
    report.setProperty("stage.computed", String.valueOf(STAGE_CALLS.get()));

    try (OutputStream out = fs.create(new Path(location + "/reports/" + reportName + ".properties"), true)) {
      report.store(out, "joblib4j on YARN");
    }
    report.list(System.out);
  }

  /** The Spark executor and the YARN container ({@code CONTAINER_ID}, set by the NodeManager) this task runs in. */
  static String where(int task) {
    return SparkEnv.get().executorId() + " " + System.getenv("CONTAINER_ID");
  }

  /** The cached step: a shard's value, with the application that computed it. */
  static String features(int shard) {
    return SparkEnv.get().conf().getAppId() + " " + featureValue(shard);
  }

  static double featureValue(int shard) {
    double f = 0;
    for (int i = 0; i < 200_000; i++) {
      f += Math.sin(shard + i * 1e-3);
    }
    return f;
  }

  static double value(String feature) {
    return Double.parseDouble(feature.substring(feature.indexOf(' ') + 1));
  }

  /** One task: chunk {@code i} of the scores from its shard's cached value. */
  static boolean fillChunk(ChunkedArray scores, MemoizedFn1<Integer, String> step, int i) {
    double f = value(step.apply(i % SHARDS));
    NDArray rows = scores.newChunk(i);
    for (int r = 0; r < rows.shape(0); r++) {
      for (int c = 0; c < COLS; c++) {
        rows.setDouble(score(f, scores.firstRow(i) + r, c), r, c);
      }
    }
    return scores.writeChunk(i, rows);
  }

  static double score(double feature, long row, int col) {
    return feature * row + col;
  }

  private static boolean holdsExpectedScores(ChunkedArray scores) {
    try (NDArray all = scores.toHeap()) {
      for (int r = 0; r < ROWS; r++) {
        double f = featureValue((r / ROWS_PER_CHUNK) % SHARDS);
        for (int c = 0; c < COLS; c++) {
          if (all.getDouble(r, c) != score(f, r, c)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * In an executor: four tasks on two {@code processes} workers. Returns "workers=N
   * parentIsExecutor=B sameContainer=B", where each worker reports its pid, its parent's and its
   * {@code CONTAINER_ID}.
   */
  static String onProcesses(int unused) {
    long executor = ProcessHandle.current().pid();
    String container = System.getenv("CONTAINER_ID");
    List<String> seen;
    try (Backend procs = Processes.builder().heap("128m").reuse(false).build();
         Parallel p = Parallel.builder().backend(procs).nJobs(2).batchSize(1).build()) {
      seen = p.run(IntStream.range(0, 4).mapToObj(i -> delayed(YarnJob::worker, i)));
    }
    Set<String> workers = new TreeSet<>();
    boolean parentIsExecutor = true;
    boolean sameContainer = container != null;
    for (String s : seen) {
      String[] f = s.split(" ");
      workers.add(f[0]);
      parentIsExecutor &= Long.parseLong(f[1]) == executor && Long.parseLong(f[0]) != executor;
      sameContainer &= f[2].equals(container);
    }
    return "workers=" + workers.size() + " parentIsExecutor=" + parentIsExecutor + " sameContainer=" + sameContainer;
  }

  /** In a processes worker: its pid, its parent's and its container. */
  static String worker(int task) {
    ProcessHandle self = ProcessHandle.current();
    return self.pid() + " " + self.parent().map(ProcessHandle::pid).orElse(-1L) + " " + System.getenv("CONTAINER_ID");
  }

  /** The stage: the even ids of its input. */
  static Dataset<Row> evens(Dataset<Row> in) {
    STAGE_CALLS.incrementAndGet();
    return in.filter(col("id").mod(2).equalTo(0));
  }

  /** Two processes workers in an executor, busy until the application is killed. */
  static void hold(String location) {
    try (Parallel p = Parallel.builder().backend("spark").nJobs(1).build()) {
      p.run(List.of(delayed(YarnJob::holdInExecutor, location + "/held")));
    }
  }

  static int holdInExecutor(String folder) {
    try (Backend procs = Processes.builder().heap("128m").reuse(false).build();
         Parallel p = Parallel.builder().backend(procs).nJobs(2).batchSize(1).build()) {
      return p.run(IntStream.range(0, 2).mapToObj(i -> delayed(YarnJob::holdInWorker, folder, i))).size();
    }
  }

  /** Writes this worker's pid and start to {@code folder}, then works (stands for a long task) until killed. */
  static int holdInWorker(String folder, int task) throws IOException, InterruptedException {
    ProcessHandle self = ProcessHandle.current();
    String started = String.valueOf(self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L));
    FileSystem fs = FileSystem.get(URI.create(folder), new Configuration());
    Path written = new Path(folder, self.pid() + ".tmp");
    try (OutputStream out = fs.create(written, false)) {
      out.write(started.getBytes(StandardCharsets.UTF_8));
    }
    fs.rename(written, new Path(folder, String.valueOf(self.pid()))); // whole, or not there for the test

    Thread.sleep(600_000); // the test kills the application long before
    return task;
  }
}
