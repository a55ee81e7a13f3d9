package io.joblib4j.spark.connect;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Backends;
import java.io.Serial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parallel on a Spark Connect server, from a client JVM that has only the Connect client. */
class SparkConnectIT {
  /** A task's own exception, a class of the application's (the tests jar, added as an artifact). */
  public static final class ScoringFailed extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    public ScoringFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  static long score(int i) throws ScoringFailed {
    if (i == 5) {
      throw new ScoringFailed("fold 5 diverged", new ArithmeticException("NaN loss"));
    }
    return (long) i * i + 7;
  }

  static long pid(int ignored) {
    return ProcessHandle.current().pid();
  }

  @Test
  void thisJvmHasTheConnectClientAndNoSparkCoreOrClassicSparkSql() {
    assertThat(ConnectServer.session().getClass().getName()).isEqualTo(ConnectLine.SESSION_CLASS);
    // the client's shims hold empty SparkContext and RDD classes: look for what only Spark itself has
    for (String classic : List.of("org.apache.spark.SparkEnv", "org.apache.spark.sql.classic.SparkSession",
        "org.apache.spark.scheduler.DAGScheduler")) {
      assertThatThrownBy(() -> Class.forName(classic)).as(classic).isInstanceOf(ClassNotFoundException.class);
    }
  }

  @Test
  void resultsEqualTheThreadsBackendsAndTasksRunInTheServersJvm() {
    List<Integer> inputs = IntStream.range(0, 40).boxed().toList();
    List<Long> expected;
    try (Parallel threads = Parallel.builder().backend("threads").nJobs(2).build()) {
      expected = threads.map((Integer i) -> (long) i * i + 7, inputs);
    }
    try (SparkBackend spark = ConnectServer.sparkBackend(ConnectServer.session(), ConnectServer.options());
         Parallel p = Parallel.builder().backend(spark).nJobs(-1).build()) {
      assertThat(p.map((Integer i) -> (long) i * i + 7, inputs)).isEqualTo(expected);
      List<Long> pids = p.map(SparkConnectIT::pid, List.of(0, 1, 2, 3));
      assertThat(pids).doesNotContain(ProcessHandle.current().pid()).allMatch(pids.get(0)::equals);
      assertThat(spark.capacity()).as("local[2]'s parallelism, asked of the server").isEqualTo(2);
      assertThat(spark.traits().crossesJvm()).isTrue();
    }
  }

  /** The Spark stage and partition a task ran in. */
  static long[] stageAndPartition(int i) throws Exception {
    Object task = Class.forName("org.apache.spark.TaskContext").getMethod("get").invoke(null);
    long stage = (Integer) task.getClass().getMethod("stageId").invoke(task);
    long partition = (Integer) task.getClass().getMethod("partitionId").invoke(task);
    return new long[] {stage, partition};
  }

  /** Per call (the tens of the argument), the first tasks of its two batches that have started. */
  private static final java.util.concurrent.ConcurrentHashMap<Integer, java.util.concurrent.CountDownLatch> STARTED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * Stage, partition, and 1 if this task met the other batch's. Arguments {@code 10 * call + item}:
   * from call 1 on, the first task of each batch (items 0 and 2) waits until the other one has
   * started too (the server runs both in its JVM); call 0 only warms the function up. Batches run
   * one after the other never meet (the wait ends after a minute, with 0); batches side by side
   * always do, however late a busy machine starts the second. (The test used to compare start and
   * end times around a 150 ms sleep, which a loaded machine's late start of the second task broke.)
   */
  static long[] stageAndMeeting(int i) throws Exception {
    long[] where = stageAndPartition(i);
    boolean met = true;
    if (i >= 10 && i % 2 == 0) {
      java.util.concurrent.CountDownLatch both = STARTED.computeIfAbsent(i / 10,
          call -> new java.util.concurrent.CountDownLatch(2));
      both.countDown();
      met = both.await(60, java.util.concurrent.TimeUnit.SECONDS);
    }
    return new long[] {where[0], where[1], met ? 1 : 0};
  }

  @Test
  void batchesCutOnePerSlotShareOneOperationAndStillRunSideBySide() {
    // shareBelow well above what an operation takes on a busy machine: at the default 1 s, a loaded
    // machine's slow operations (a .ci/run beside stress-ng) rightly stopped the sharing
    Map<String, Object> options = new java.util.HashMap<>(ConnectServer.options());
    options.put("shareBelow", java.time.Duration.ofMinutes(10));
    try (SparkBackend spark = ConnectServer.sparkBackend(ConnectServer.session(), options)) {
      try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
        List<long[]> first = p.map(SparkConnectIT::stageAndPartition, List.of(0, 1, 2, 3)); // batches 0-1 and 2-3
        assertThat(first.get(2)[0]).as("a function seen for the first time: an operation per batch")
            .isNotEqualTo(first.get(0)[0]);
        p.map(SparkConnectIT::stageAndPartition, List.of(0, 1, 2, 3)); // warm: the first may have loaded classes
        p.map(SparkConnectIT::stageAndMeeting, List.of(0, 1, 2, 3)); // the same for the function below
        List<long[]> r = p.map(SparkConnectIT::stageAndMeeting, List.of(10, 11, 12, 13));
        assertThat(r.get(2)[0]).as("its operations were short: one operation, one Spark job, one stage")
            .isEqualTo(r.get(0)[0]);
        assertThat(r.get(2)[1]).as("a partition per batch").isNotEqualTo(r.get(0)[1]);
        assertThat(r.get(0)[2]).as("side by side: the first batch's first task met the second's").isEqualTo(1);
        assertThat(r.get(2)[2]).as("side by side: the second batch's first task met the first's").isEqualTo(1);
      }
      try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(2).build()) {
        List<long[]> r = p.map(SparkConnectIT::stageAndPartition, List.of(0, 1, 2, 3));
        assertThat(r.get(2)[0]).as("batches sent one by one: an operation each").isNotEqualTo(r.get(0)[0]);
      }
    }
  }

  @Test
  void aShareBelowThatIsNoDurationOrIsNegativeIsRefusedSayingWhatItMustBe() {
    assertThatThrownBy(() -> new SparkConnectBackend(ConnectServer.session(), Map.of("shareBelow", "2s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shareBelow").hasMessageContaining("PT2S").hasMessageContaining("\"2s\"");
    assertThatThrownBy(() -> new SparkConnectBackend(ConnectServer.session(),
        Map.of("shareBelow", java.time.Duration.ofSeconds(-1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
  }

  /** Task 0 fails at once, task 1 runs 30 s unless interrupted, others take 1.2 s. */
  static int failOrRun(int i) throws Exception {
    if (i == 0) {
      throw new ScoringFailed("task 0 failed", null);
    }
    Thread.sleep(i == 1 ? 30_000 : 1_200); // stands for work; interrupted when the call is cancelled
    return i;
  }

  @Test
  void aFailureCancelsTheOtherBatchesAtOnceWhenTheFunctionsOperationsAreLong() {
    try (SparkBackend spark = ConnectServer.sparkBackend(ConnectServer.session(), ConnectServer.options());
         Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      assertThat(p.map(SparkConnectIT::failOrRun, List.of(2, 3))).containsExactly(2, 3); // operations of 1.2 s
      long t0 = System.nanoTime();
      assertThat(catchThrowable(() -> p.map(SparkConnectIT::failOrRun, List.of(0, 1))))
          .isInstanceOf(ScoringFailed.class).hasMessage("task 0 failed");
      // an operation per batch: task 0's reports at once and the call cancels task 1's (30 s)
      assertThat(System.nanoTime() - t0).isLessThan(20_000_000_000L);
    }
  }

  @Test
  void backendSparkOnTheActiveConnectSessionTakesTheConnectPath() {
    SparkSession session = ConnectServer.session();
    try (SparkConnectBackend given = new SparkConnectBackend(session, ConnectServer.options());
         Parallel p = Parallel.builder().backend(given).build()) {
      p.run(List.of(delayed(() -> 0))); // gives the session the tests' jar, which artifacts keep
    }
    ConnectLine.setActive(session);
    try (Parallel p = Parallel.builder().backend("spark").nJobs(2).build()) {
      assertThat(p.map((Integer i) -> i + 1, List.of(1, 2, 3))).containsExactly(2, 3, 4);
    }
    try (Backend b = Backends.create("spark", java.util.Map.of())) {
      assertThat(b.name()).isEqualTo("spark");
      assertThat(b).isInstanceOf(SparkConnectBackend.class);
    }
  }

  @Test
  void aTasksOwnExceptionComesBackAsItselfWithTheServersStackTrace() {
    Throwable t;
    try (Parallel p = Parallel.builder().backend(new SparkConnectBackend(ConnectServer.session(),
        ConnectServer.options())).nJobs(2).batchSize(2).build()) {
      t = catchThrowable(() -> p.map(SparkConnectIT::score, IntStream.range(0, 10).boxed().toList()));
    }
    assertThat(t).isExactlyInstanceOf(ScoringFailed.class).hasMessage("fold 5 diverged")
        .hasCauseExactlyInstanceOf(ArithmeticException.class);
    assertThat(Arrays.stream(t.getStackTrace()).map(StackTraceElement::getMethodName)).contains("score");
    assertThat(Arrays.stream(t.getSuppressed()).map(Throwable::getMessage))
        .anyMatch(note -> note.contains("task 5") && note.contains("Spark Connect executor"));
  }

  @Test
  void aMemoryUsedInsideTasksCachesOnTheServer(@TempDir Path dir) throws Exception {
    Path calls = Files.createDirectories(dir.resolve("calls"));
    String location = dir.resolve("cache").toString();
    String callsDir = calls.toString();
    try (Parallel p = Parallel.builder().backend(new SparkConnectBackend(ConnectServer.session(),
        ConnectServer.options())).nJobs(2).batchSize(1).build()) {
      for (int round = 0; round < 2; round++) {
        List<Integer> out = p.map((Integer i) -> new Memory(location).cache((Integer x) -> {
          Files.createTempFile(Path.of(callsDir), "x" + x + "-", ".ran");
          return x * 10;
        }).invoke(i), List.of(1, 2, 3));
        assertThat(out).containsExactly(10, 20, 30);
      }
    }
    try (var ran = Files.list(calls)) {
      assertThat(ran.count()).as("each input computed once: the second round read the server's cache").isEqualTo(3);
    }
  }
}
