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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Failures on local[2]: a task's own exception comes back as itself and is not retried;
 * cancellation and timeouts stop running tasks fast; what cannot travel fails clearly (the
 * backend contract, {@link SparkBackendContractIT}, covers the rest on a local cluster).
 */
class SparkErrorsTest extends OnLocalSpark {
  /** local mode runs tasks in this JVM, so statics count executions. */
  static final AtomicInteger RUNS = new AtomicInteger();
  static final AtomicInteger FINISHED_SLEEPING = new AtomicInteger();
  /** Counted down by a long task when it starts, and when it is interrupted; set afresh by each test. */
  static volatile CountDownLatch sleeping = new CountDownLatch(0);
  static volatile CountDownLatch interrupted = new CountDownLatch(0);

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
        .anyMatch(s -> s.contains("ServingLoop.serve"));
    assertThat(Arrays.stream(t.getSuppressed()).map(Throwable::getMessage))
        .anyMatch(m -> m.contains("task 7") && m.contains("executor"));
    assertThat(RUNS.get()).as("Spark did not re-run the failing task").isEqualTo(8);
  }

  @Test
  void theFirstFailureCancelsRunningTasks() throws Exception {
    sleeping = new CountDownLatch(1);
    interrupted = new CountDownLatch(1);
    FINISHED_SLEEPING.set(0);
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      t = catchThrowable(() -> p.run(List.of(
          delayed(SparkErrorsTest::sleepLong),
          delayed(() -> {
            sleeping.await(); // the other worker is in its long task (a static: latches do not serialize)
            throw new IllegalStateException("boom");
          }),
          delayed(SparkErrorsTest::sleepLong),
          delayed(SparkErrorsTest::sleepLong))));
    }
    assertThat(t).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    assertThat(FINISHED_SLEEPING.get()).as("the call did not wait for the 20 s tasks").isZero();
    await(interrupted); // the sleeping task was interrupted
    assertThat(FINISHED_SLEEPING.get()).isZero();
  }

  static int sleepLong() {
    sleeping.countDown();
    try {
      Thread.sleep(20_000);
      FINISHED_SLEEPING.incrementAndGet();
      return 1;
    } catch (InterruptedException e) {
      interrupted.countDown();
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Test
  void aTimeoutCancelsTheCallWithATimeoutException() throws Exception {
    sleeping = new CountDownLatch(1);
    interrupted = new CountDownLatch(1);
    FINISHED_SLEEPING.set(0);
    Throwable t;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).timeout(Duration.ofMillis(800)).build()) {
      t = catchThrowable(() -> p.run(List.of(delayed(SparkErrorsTest::sleepLong), delayed(() -> 1))));
    }
    assertThat(t).isInstanceOf(TimeoutException.class);
    assertThat(FINISHED_SLEEPING.get()).as("the call did not wait for the 20 s task").isZero();
    await(interrupted);
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

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertThat(latch.await(30, TimeUnit.SECONDS)).as("released within 30 s").isTrue();
  }
}
