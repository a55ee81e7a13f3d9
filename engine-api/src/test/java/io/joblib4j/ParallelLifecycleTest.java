package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.testing.Captured;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ParallelLifecycleTest {

  /** joblib's test_multiple_generator_call. */
  @Test
  void callingAnInstanceWhileItStreamsAResultFailsClearly() {
    try (Parallel p = Parallel.nJobs(2)) {
      ResultIterator<Integer> open = p.iterate(IntStream.range(0, 100).mapToObj(i -> delayed(() -> i)));
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> 1))))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
      open.close();
      assertThat(p.run(List.of(delayed(() -> 1)))).containsExactly(1);
    }
  }

  /** joblib's test_multiple_generator_call_separated. */
  @Test
  void separateInstancesStreamConcurrently() {
    try (Parallel a = Parallel.nJobs(2); Parallel b = Parallel.nJobs(2)) {
      ResultIterator<Integer> ia = a.iterate(IntStream.range(0, 50).mapToObj(i -> delayed(() -> i)));
      ResultIterator<Integer> ib = b.iterate(IntStream.range(0, 50).mapToObj(i -> delayed(() -> -i)));
      int sum = 0;
      while (ia.hasNext() || ib.hasNext()) {
        sum += ia.hasNext() ? ia.next() : 0;
        sum += ib.hasNext() ? ib.next() : 0;
      }
      assertThat(sum).isZero();
    }
  }

  @Test
  void closingAnIteratorEarlyCancelsTheRestAndWarns() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    CountDownLatch slowOneStarted = new CountDownLatch(1);
    List<String> warnings = Captured.warnings(() -> {
      try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build()) {
        ResultIterator<Integer> it = p.iterate(IntStream.range(0, 10).mapToObj(i -> delayed(() -> {
          if (i > 0) {
            slowOneStarted.countDown();
            try {
              Thread.sleep(20_000);
            } catch (InterruptedException e) {
              interrupted.countDown();
            }
          }
          return i;
        })));
        assertThat(it.next()).isZero();
        try {
          assertThat(slowOneStarted.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
        it.close();
        assertThat(it.hasNext()).isFalse();
        assertThat(p.run(List.of(delayed(() -> 1)))).containsExactly(1);
      }
    });
    assertThat(warnings).anyMatch(w -> w.contains("cancelled"));
    ParallelErrorsTest.await(interrupted);
  }

  /** joblib's test_multiple_generator_call_separated_gc: a dropped iterator frees its Parallel. */
  @Test
  void aDroppedIteratorIsAbandonedByTheGarbageCollector() throws Exception {
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build()) {
      startAndDrop(p);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (true) {
        System.gc();
        try {
          assertThat(p.run(List.of(delayed(() -> 7)))).containsExactly(7);
          break;
        } catch (IllegalStateException stillRunning) {
          if (System.nanoTime() > deadline) {
            throw stillRunning;
          }
          Thread.sleep(50);
        }
      }
    }
  }

  private static void startAndDrop(Parallel p) {
    ResultIterator<Integer> it = p.iterate(IntStream.range(0, 1000).mapToObj(i -> delayed(() -> {
      Thread.sleep(5);
      return i;
    })));
    it.next();
  }

  /** joblib's test_loky_reuse_workers, for threads: a managed instance keeps its workers. */
  @Test
  void aManagedInstanceReusesItsWorkersAcrossCalls() {
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build()) {
      Set<String> first = workerNames(p);
      Set<String> second = workerNames(p);
      assertThat(second).isEqualTo(first);
    }
  }

  static Set<String> workerNames(Parallel p) {
    CountDownLatch both = new CountDownLatch(2);
    return p.run(IntStream.range(0, 2).mapToObj(i -> delayed(() -> {
      both.countDown();
      both.await(10, TimeUnit.SECONDS);
      return Thread.currentThread().getName();
    }))).stream().collect(Collectors.toSet());
  }

  @Test
  void aClosedInstanceRefusesNewCalls() {
    Parallel p = Parallel.nJobs(2);
    p.run(List.of(delayed(() -> 1)));
    p.close();
    assertThatThrownBy(() -> p.run(List.of(delayed(() -> 1)))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  /** joblib's test_initializer_*: once per worker, before its first task. */
  @Test
  void theInitializerRunsOnceInEachWorkerBeforeItsFirstTask() {
    Set<String> initialized = ConcurrentHashMap.newKeySet();
    AtomicInteger runs = new AtomicInteger();
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).initializer(() -> {
      runs.incrementAndGet();
      initialized.add(Thread.currentThread().getName());
    }).build()) {
      for (int round = 0; round < 3; round++) {
        List<Boolean> sawInit = p.run(IntStream.range(0, 20).mapToObj(i ->
            delayed(() -> initialized.contains(Thread.currentThread().getName()))));
        assertThat(sawInit).containsOnly(true);
      }
    }
    assertThat(runs.get()).isEqualTo(initialized.size()).isBetween(1, 2);
  }

  /** With one job the call runs in the caller's thread, its one worker: the initializer runs there. */
  @Test
  void withOneJobTheInitializerRunsInTheCallersThreadBeforeTheFirstTask() {
    try (Parallel p = Parallel.builder().nJobs(1).initializer(NativeLike::load).build()) {
      assertThat(p.run(IntStream.range(0, 3).mapToObj(i -> delayed(NativeLike::use, i))))
          .containsExactly("loaded:0", "loaded:1", "loaded:2");
    }
    assertThatThrownBy(() -> Parallel.builder().nJobs(1).initializer(() -> {
      throw new UnsupportedOperationException("no GPU here");
    }).build().run(List.of(delayed(() -> 1)))).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("no GPU here");
  }

  /** Seed 000's shape: a value whose class must be initialized in the worker before tasks use it. */
  @Test
  void theInitializerPreparesGlobalStateTasksDependOn() {
    List<String> r = Parallel.builder().nJobs(2).initializer(NativeLike::load).build()
        .run(IntStream.range(0, 4).mapToObj(i -> delayed(NativeLike::use, i)));
    assertThat(r).containsExactly("loaded:0", "loaded:1", "loaded:2", "loaded:3");
  }

  /** Stands in for a native library that must be loaded in each worker thread. */
  static final class NativeLike {
    private static final ThreadLocal<Boolean> LOADED = ThreadLocal.withInitial(() -> false);

    static void load() {
      LOADED.set(true);
    }

    static String use(int i) {
      if (!LOADED.get()) {
        throw new IllegalStateException("native library not loaded in " + Thread.currentThread().getName());
      }
      return "loaded:" + i;
    }
  }

  @Test
  void aFailingInitializerFailsTheCallWithItsException() {
    assertThatThrownBy(() -> Parallel.builder().nJobs(2).initializer(() -> {
      throw new UnsupportedOperationException("no GPU here");
    }).build().run(List.of(delayed(() -> 1)))).isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("no GPU here");
  }

  @Test
  void verboseOutputFollowsJoblibsFormat() {
    String err = Captured.stderr(() -> Parallel.builder().nJobs(2).verbose(100 - 50).build()
        .run(IntStream.range(0, 3).mapToObj(i -> delayed(() -> i))));
    assertThat(err).isEmpty(); // verbose 50 and above prints on stdout
    String out = Captured.stderr(() -> Parallel.builder().nJobs(2).verbose(11).batchSize(1).build()
        .run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> {
          Thread.sleep(5);
          return i;
        }))));
    List<String> lines = out.lines().collect(Collectors.toList());
    assertThat(lines.get(0)).isEqualTo("[Parallel(n_jobs=2)]: Using backend threads with 2 concurrent workers.");
    assertThat(lines).anyMatch(l -> l.matches("\\[Parallel\\(n_jobs=2\\)\\]: Done +\\d+ out of +20 \\| elapsed: +\\d+\\.\\ds.*"));
    assertThat(lines.get(lines.size() - 1)).matches("\\[Parallel\\(n_jobs=2\\)\\]: Done 20 out of 20 \\| elapsed: +\\d+\\.\\ds finished");
    // joblib's test_parallel_pretty_print: progress lines have a constant width
    List<Integer> widths = new ArrayList<>();
    for (String l : lines) {
      if (l.contains("out of")) {
        widths.add(l.indexOf("| elapsed"));
      }
    }
    assertThat(widths).containsOnly(widths.get(0));
  }

  @Test
  void progressListenersHearStartProgressAndFinish() {
    List<String> events = new ArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void started(CallInfo call) {
        events.add("start " + call.backend() + " " + call.nJobs() + " " + call.description());
      }

      @Override
      public void progressed(CallInfo call, Progress p) {
        events.add("progress " + p.completedTasks());
      }

      @Override
      public void finished(CallInfo call, Progress p, Throwable failure) {
        events.add("finish " + p.completedTasks() + " " + (failure == null));
      }
    };
    Parallel.builder().nJobs(2).batchSize(2).progress(listener).build()
        .run(IntStream.range(0, 10).mapToObj(i -> delayed(ParallelLifecycleTest::twice, i)));
    assertThat(events.get(0)).isEqualTo("start threads 2 ParallelLifecycleTest.twice");
    assertThat(events.get(events.size() - 1)).isEqualTo("finish 10 true");
    assertThat(events).contains("progress 10");
  }

  static int twice(int i) {
    return 2 * i;
  }

  @Test
  void progressListenersHearAFailure() {
    List<Throwable> failures = new ArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void finished(CallInfo call, Progress p, Throwable failure) {
        failures.add(failure);
      }
    };
    assertThatThrownBy(() -> Parallel.builder().nJobs(2).progress(listener).build()
        .run(Stream.of(delayed(() -> {
          throw new IllegalStateException("x");
        })))).isInstanceOf(IllegalStateException.class);
    assertThat(failures).hasSize(1).first().isInstanceOf(IllegalStateException.class);
  }
}
