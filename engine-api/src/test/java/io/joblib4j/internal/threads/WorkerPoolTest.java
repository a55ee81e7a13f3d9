package io.joblib4j.internal.threads;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class WorkerPoolTest {
  @Test
  void idleWorkersExitAndComeBackWithWork() throws Exception {
    ThreadsBackend backend = new ThreadsBackend(Duration.ofMillis(100));
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      p.run(IntStream.range(0, 10).mapToObj(i -> delayed(() -> i)));
      awaitWorkers(backend, 0);
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
    p.run(List.of(delayed(() -> 1)));
    long before = countWorkerThreads();
    backend.close();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (countWorkerThreads() > before - 3 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(countWorkerThreads()).isLessThanOrEqualTo(before - 3);
  }

  private static long countWorkerThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("joblib4j-threads")).count();
  }

  private static void awaitWorkers(ThreadsBackend backend, int n) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (backend.liveWorkers() != n && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(backend.liveWorkers()).isEqualTo(n);
  }
}
