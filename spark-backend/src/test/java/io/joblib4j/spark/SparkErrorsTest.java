package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.JoblibException;
import io.joblib4j.Parallel;
import io.joblib4j.RemoteTaskException;
import io.joblib4j.TaskSerializationException;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Failures on local[2]: a task's own exception comes back as itself and is not retried;
 * cancellation and timeouts stop running tasks fast; what cannot travel fails clearly.
 */
class SparkErrorsTest extends OnLocalSpark {
  /** local mode runs tasks in this JVM, so statics count executions. */
  static final AtomicInteger RUNS = new AtomicInteger();
  static final AtomicInteger INTERRUPTED = new AtomicInteger();
  static final AtomicInteger FINISHED_SLEEPING = new AtomicInteger();

  static final class ScoreError extends Exception {
    @Serial private static final long serialVersionUID = 1L;

    ScoreError(String message, Throwable cause) {
      super(message, cause);
    }
  }

  static int failAt(int i) throws ScoreError {
    RUNS.incrementAndGet();
    if (i == 7) {
      throw new ScoreError("fold " + i + " diverged", new ArithmeticException("NaN"));
    }
    return i;
  }

  @Test
  void aTaskExceptionComesBackAsItselfWithTheExecutorStackAndIsNotRetried() {
    RUNS.set(0);
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      t = catchThrowable(() -> p.run(IntStream.range(0, 8).mapToObj(i -> delayed(SparkErrorsTest::failAt, i))));
    }
    assertThat(t).isInstanceOf(ScoreError.class).hasMessage("fold 7 diverged")
        .hasCauseInstanceOf(ArithmeticException.class);
    assertThat(Arrays.stream(t.getStackTrace()).map(StackTraceElement::toString))
        .as("the stack trace is the executor's").anyMatch(s -> s.contains("SparkErrorsTest.failAt"))
        .anyMatch(s -> s.contains("WorkerLoop"));
    assertThat(Arrays.stream(t.getSuppressed()).map(Throwable::getMessage))
        .anyMatch(m -> m.contains("task 7") && m.contains("executor"));
    assertThat(RUNS.get()).as("Spark did not re-run the failing task").isEqualTo(8);
  }

  @Test
  void theFirstFailureCancelsRunningTasksWithinAboutASecond() throws Exception {
    INTERRUPTED.set(0);
    FINISHED_SLEEPING.set(0);
    long start = System.nanoTime();
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      t = catchThrowable(() -> p.run(List.of(
          delayed(SparkErrorsTest::sleepLong),
          delayed(() -> {
            Thread.sleep(300);
            throw new IllegalStateException("boom");
          }),
          delayed(SparkErrorsTest::sleepLong),
          delayed(SparkErrorsTest::sleepLong))));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    assertThat(seconds).as("failed fast, not after the 20 s sleeps").isLessThan(5);
    waitFor(() -> INTERRUPTED.get() >= 1);
    assertThat(INTERRUPTED.get()).as("the sleeping task was interrupted").isEqualTo(1);
    assertThat(FINISHED_SLEEPING.get()).isZero();
  }

  static int sleepLong() {
    try {
      Thread.sleep(20_000);
      FINISHED_SLEEPING.incrementAndGet();
      return 1;
    } catch (InterruptedException e) {
      INTERRUPTED.incrementAndGet();
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Test
  void aTimeoutCancelsTheCallWithATimeoutException() throws Exception {
    INTERRUPTED.set(0);
    long start = System.nanoTime();
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).timeout(Duration.ofMillis(800)).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(SparkErrorsTest::sleepLong), delayed(() -> 1))));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(t).isInstanceOf(TimeoutException.class);
    assertThat(seconds).isLessThan(5);
    waitFor(() -> INTERRUPTED.get() >= 1);
    assertThat(INTERRUPTED.get()).isEqualTo(1);
  }

  @Test
  void theTimeoutIsPerTaskBecauseExecutorsReportEachFinishedTask() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(5)
        .timeout(Duration.ofMillis(1500)).build()) {
      // a batch of 5 tasks of 400 ms takes 2 s, more than the timeout, but no task does
      List<Integer> out = p.run(IntStream.range(0, 10).mapToObj(i -> delayed(() -> {
        Thread.sleep(400);
        return i;
      })));
      assertThat(out).hasSize(10);
    }
  }

  /** An exception whose class cannot be serialized: it comes back as a RemoteTaskException. */
  static final class Unsendable extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;
    @SuppressWarnings("unused")
    private final transient Object ok = null;
    private final Thread notSerializable = Thread.currentThread();

    Unsendable(String message) {
      super(message);
    }
  }

  @Test
  void anExceptionThatCannotBeSerializedBecomesARemoteTaskException() {
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(() -> {
        throw new Unsendable("model file is corrupt");
      }))));
    }
    assertThat(t).isInstanceOf(RemoteTaskException.class);
    RemoteTaskException r = (RemoteTaskException) t;
    assertThat(r.remoteClassName()).isEqualTo(Unsendable.class.getName());
    assertThat(r.getMessage()).contains("model file is corrupt").contains(Unsendable.class.getName());
    assertThat(r.remoteStackTrace()).contains("model file is corrupt").contains("SparkErrorsTest");
  }

  /** Serializes fine but fails to deserialize: also a RemoteTaskException. */
  static final class Undeserializable extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    Undeserializable(String message) {
      super(message);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException {
      throw new java.io.InvalidObjectException("refuses to be read");
    }
  }

  @Test
  void anExceptionThatCannotBeDeserializedBecomesARemoteTaskException() {
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(() -> {
        throw new Undeserializable("bad input row 42");
      }))));
    }
    assertThat(t).isInstanceOf(RemoteTaskException.class).hasMessageContaining("bad input row 42");
    assertThat(((RemoteTaskException) t).remoteClassName()).isEqualTo(Undeserializable.class.getName());
  }

  @Test
  void anArgumentThatIsNotSerializableIsATaskSerializationExceptionWithItsFieldPath() {
    Object notSerializable = new Object();
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(o -> o.hashCode(), List.of(notSerializable)))))
          .isInstanceOf(TaskSerializationException.class)
          .hasMessageContaining("cannot be sent to Spark executors")
          .hasMessageContaining("java.lang.Object is not Serializable")
          .hasRootCauseInstanceOf(NotSerializableException.class)
          .satisfies(e -> assertThat(((TaskSerializationException) e).path()).startsWith("argument 0 (")
              .endsWith("→ [0] (java.lang.Object)"));
    }
  }

  @Test
  void resultsOverTheResultSizeLimitFailEarlyNamingSparkDriverMaxResultSize() {
    try (SparkBackend small = new SparkBackend(LocalSpark.session().sparkContext(),
        java.util.Map.of("maxResultSize", "1m"));
         Parallel p = Parallel.builder().backend(small).nJobs(2).build()) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> new byte[4 << 20]))))
          .isInstanceOf(JoblibException.class)
          .hasMessageContaining("spark.driver.maxResultSize");
      // the backend stays usable for results that fit
      assertThat(p.run(List.of(delayed(() -> new byte[1000])))).hasSize(1);
    }
  }

  @Test
  void aFailingInitializerFailsTheCallWithItsOwnExceptionAsOnThreads() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2)
        .initializer(() -> {
          throw new IllegalStateException("no licence for the solver");
        }).build()) {
      Throwable t = catchThrowable(() -> p.run(List.of(delayed(() -> 1))));
      assertThat(t).isInstanceOf(IllegalStateException.class).hasMessage("no licence for the solver");
      assertThat(t.getSuppressed()).anyMatch(s -> s.getMessage().contains("the initializer failed in worker executor"));
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }
}
