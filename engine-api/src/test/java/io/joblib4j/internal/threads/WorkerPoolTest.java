package io.joblib4j.internal.threads;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WorkerPoolTest {
  @Test
  void idleWorkersExitAndComeBackWithWork() throws Exception {
    ThreadsBackend backend = new ThreadsBackend(Duration.ofMillis(100));
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      for (Thread worker : workerThreads(p, 2)) {
        worker.join(10_000); // idle for 100 ms, it exits
        assertThat(worker.isAlive()).isFalse();
      }
      assertThat(backend.liveWorkers()).isZero();
      assertThat(p.run(IntStream.range(0, 10).mapToObj(i -> delayed(() -> i)))).hasSize(10);
    } finally {
      backend.close();
    }
  }

  @Test
  void aSmallerCallRetiresExtraWorkers() throws Exception {
    ThreadsBackend backend = new ThreadsBackend(Duration.ofMinutes(1));
    try (Parallel four = Parallel.builder().backend(backend).nJobs(4).build();
        Parallel two = Parallel.builder().backend(backend).nJobs(2).build()) {
      four.run(List.of(delayed(() -> 1)));
      assertThat(backend.liveWorkers()).isEqualTo(4);
      two.run(List.of(delayed(() -> 1)));
      assertThat(backend.liveWorkers()).isEqualTo(2);
    } finally {
      backend.close();
    }
    assertThat(backend.liveWorkers()).isZero();
  }

  @Test
  void closingTheBackendStopsItsThreads() throws Exception {
    ThreadsBackend backend = new ThreadsBackend();
    Parallel p = Parallel.builder().backend(backend).nJobs(3).build();
    List<Thread> workers = workerThreads(p, 3);
    backend.close();
    for (Thread worker : workers) {
      worker.join(10_000);
      assertThat(worker.isAlive()).isFalse();
    }
  }

  /** The {@code n} worker threads of {@code p}: {@code n} tasks that wait for each other, so each runs on its own. */
  private static List<Thread> workerThreads(Parallel p, int n) {
    CountDownLatch all = new CountDownLatch(n);
    return p.run(IntStream.range(0, n).mapToObj(i -> delayed(() -> {
      all.countDown();
      all.await();
      return Thread.currentThread();
    })));
  }
}
