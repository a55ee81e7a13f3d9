package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.testing.Captured;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ParallelTimeoutTest {

  static Stream<Delayed<Integer>> sleeps(int... millis) {
    return IntStream.range(0, millis.length).mapToObj(i -> delayed(() -> {
      Thread.sleep(millis[i]);
      return i;
    }));
  }

  /** joblib's test_parallel_timeout_success. */
  @Test
  void fastTasksFinishUnderTheTimeout() {
    List<Integer> r = Parallel.builder().nJobs(2).timeout(Duration.ofSeconds(5)).build()
        .run(sleeps(10, 10, 10, 10, 10, 10));
    assertThat(r).containsExactly(0, 1, 2, 3, 4, 5);
  }

  /** joblib's test_parallel_timeout_fail, in list mode. */
  @Test
  void aTaskRunningLongerThanTheTimeoutFailsTheCall() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> Parallel.builder().nJobs(2).timeout(Duration.ofMillis(300)).build()
        .run(sleeps(10, 10, 20_000, 10)))
        .isInstanceOf(TimeoutException.class)
        .hasMessageContaining("task 2")
        .hasMessageContaining("PT0.3S");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void timeoutFailsIterateAndIterateUnorderedToo() {
    try (Parallel p = Parallel.builder().nJobs(2).timeout(Duration.ofMillis(300)).build()) {
      List<Integer> seen = new ArrayList<>();
      assertThatThrownBy(() -> p.iterate(sleeps(10, 20_000, 10)).forEachRemaining(seen::add))
          .isInstanceOf(TimeoutException.class);
      assertThat(seen).containsExactly(0);
      assertThatThrownBy(() -> p.iterateUnordered(sleeps(20_000, 10, 10)).forEachRemaining(x -> {}))
          .isInstanceOf(TimeoutException.class);
    }
  }

  @Test
  void theTimeoutIsPerTaskNotPerBatch() {
    // 20 tasks of 100 ms in batches of 10 take 1 s per batch; each task is well under 400 ms
    List<Integer> r = Parallel.builder().nJobs(2).batchSize(10).timeout(Duration.ofMillis(400)).build()
        .run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> {
          Thread.sleep(100);
          return i;
        })));
    assertThat(r).hasSize(20);
  }

  @Test
  void theClockStartsWhenAWorkerTakesTheTaskNotWhenItIsQueued() {
    // one worker, four tasks of 200 ms: the last waits 600 ms in the queue, yet none exceeds 400 ms
    List<Integer> r = Parallel.builder().backend("threads").nJobs(2).batchSize(1).preDispatch("all")
        .timeout(Duration.ofMillis(400)).build()
        .run(sleeps(200, 200, 200, 200, 200, 200));
    assertThat(r).hasSize(6);
  }

  @Test
  void timedOutTasksAreInterrupted() {
    CountDownLatch interrupted = new CountDownLatch(1);
    assertThatThrownBy(() -> Parallel.builder().nJobs(2).timeout(Duration.ofMillis(200)).build()
        .run(Stream.of(delayed(() -> {
          try {
            Thread.sleep(20_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
          return 0;
        })))).isInstanceOf(TimeoutException.class);
    ParallelErrorsTest.await(interrupted);
  }

  /** joblib's test_warning_about_timeout_not_supported_by_backend. */
  @Test
  void theSequentialBackendWarnsThatItCannotEnforceATimeout() {
    List<String> warnings = Captured.warnings(() -> Parallel.builder().nJobs(1).timeout(Duration.ofSeconds(1))
        .build().run(sleeps(1, 1)));
    assertThat(warnings).anyMatch(w -> w.contains("does not support timeout"));
  }
}
