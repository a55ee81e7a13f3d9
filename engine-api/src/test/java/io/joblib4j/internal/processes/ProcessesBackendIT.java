package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.ParallelConfig;
import io.joblib4j.Prefer;
import io.joblib4j.Processes;
import io.joblib4j.ResultIterator;
import io.joblib4j.spi.Backend;
import io.joblib4j.testing.Rendezvous.Gate;
import java.io.Serial;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class ProcessesBackendIT {

  @Test
  void runsTasksInOtherJvmsAndReturnsResultsInInputOrder() {
    try (Parallel p = Workers.processes(2)) {
      List<long[]> r = p.run(IntStream.range(0, 50).mapToObj(i -> delayed(x -> new long[] {x * x, Workers.pid()}, (long) i)));
      for (int i = 0; i < 50; i++) {
        assertThat(r.get(i)[0]).isEqualTo((long) i * i);
      }
      Set<Long> pids = new HashSet<>();
      r.forEach(x -> pids.add(x[1]));
      assertThat(pids).doesNotContain(Workers.pid()).hasSizeBetween(1, 2);
    }
  }

  @Test
  void reusesWorkersAcrossCallsAndAcrossParallelInstancesWithEqualSettings() {
    Set<Long> first = bothWorkers(Workers.processes(2));
    Set<Long> again = bothWorkers(Workers.processes(2));
    try (Parallel p = Workers.processes(2)) {
      assertThat(bothWorkers(p)).isEqualTo(bothWorkers(p)).isEqualTo(first);
    }
    assertThat(first).hasSize(2);
    assertThat(again).isEqualTo(first);
  }

  /**
   * The pids of the workers that run a call of two tasks, each held until both have arrived, so
   * that each runs in a worker of its own. (Forty short tasks, as before, could all go to one
   * worker on a busy machine, and the same pool then looked like another.)
   */
  private static Set<Long> bothWorkers(Parallel p) {
    Gate gate = Workers.announcing("both-workers");
    CompletableFuture<List<Long>> call = CompletableFuture.supplyAsync(() -> p.run(IntStream.range(0, 2)
        .mapToObj(i -> delayed(x -> {
          Workers.announce(gate);
          gate.pass();
          return Workers.pid();
        }, i))));
    Workers.rendezvous().awaitArrivals(gate.name(), 2);
    Workers.rendezvous().openGate(gate.name());
    return new HashSet<>(call.join());
  }

  @Test
  void keepsTheTaskExceptionTypeMessageAndCauseFromTheWorker() {
    try (Parallel p = Workers.processes(2)) {
      assertThatThrownBy(() -> p.run(IntStream.range(0, 20).mapToObj(i -> delayed(x -> {
        if (x == 7) {
          throw new DomainException("bad input " + x, new IllegalStateException("root cause"));
        }
        return x;
      }, i))))
          .isInstanceOf(DomainException.class)
          .hasMessage("bad input 7")
          .hasCauseInstanceOf(IllegalStateException.class)
          .satisfies(e -> assertThat(e.getStackTrace()).anyMatch(f -> f.getClassName().contains("ProcessesBackendIT")));
      assertThat(p.run(List.of(delayed(() -> 1)))).containsExactly(1); // the pool still works
    }
  }

  @Test
  void sendsBackAStandInWhenTheTaskExceptionCannotBeSerialized() {
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> {
        throw new HoldsAThread("cannot travel");
      }))))
          .isInstanceOf(io.joblib4j.RemoteTaskException.class)
          .hasMessageContaining(HoldsAThread.class.getName() + ": cannot travel")
          .hasMessageContaining("could not be brought back as itself");
    }
  }

  @Test
  void streamsResultsUnorderedAndLazily() {
    try (Parallel p = Workers.processes(2)) {
      List<Integer> got = new ArrayList<>();
      try (ResultIterator<Integer> it = p.iterateUnordered(IntStream.range(0, 30).mapToObj(i -> delayed(x -> x * 2, i)))) {
        it.forEachRemaining(got::add);
      }
      assertThat(got).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 30).map(i -> i * 2).boxed().toList());
    }
  }

  @Test
  void anEmptyInputReturnsNothingWithoutStartingWorkers() {
    try (Parallel p = Workers.processes(2)) {
      assertThat(p.run(List.<io.joblib4j.Delayed<Integer>>of())).isEmpty();
    }
  }

  @Test
  void isChosenByPreferProcessesAndByName() {
    try (Parallel p = Parallel.builder().prefer(Prefer.PROCESSES).nJobs(2).build()) {
      assertThat(p.run(List.of(delayed(Workers::pid))).get(0)).isNotEqualTo(Workers.pid());
    }
    try (ParallelConfig.Scope s = ParallelConfig.backend("processes").nJobs(2).apply();
         Parallel p = Parallel.builder().build()) {
      assertThat(p.run(List.of(delayed(Workers::pid))).get(0)).isNotEqualTo(Workers.pid());
    }
  }

  @Test
  void reportsEachTaskSoThatTheTimeoutAppliesPerTaskNotPerBatch() {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).batchSize(8)
        .timeout(Duration.ofMillis(700)).build()) {
      // 8 tasks of 250 ms in one batch: 2 s for the batch, well under the timeout for each task
      List<Integer> r = p.run(IntStream.range(0, 8).mapToObj(i -> delayed(x -> {
        Thread.sleep(250);
        return x;
      }, i)));
      assertThat(r).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }
  }

  @Test
  void runsNestedParallelCallsOnThreadsInsideTheWorker() {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).innerThreads(2).build()) {
      List<String> r = p.run(List.of(delayed(() -> {
        ParallelConfig c = ParallelConfig.current();
        try (Parallel inner = Parallel.nJobs(2)) {
          List<Long> innerPids = inner.run(List.of(delayed(Workers::pid), delayed(Workers::pid)));
          return c.nestingLevel() + " " + c.threadBudget() + " " + c.backendName().orElse("?") + " "
              + innerPids.stream().allMatch(x -> x == Workers.pid());
        }
      })));
      assertThat(r).containsExactly("1 2 threads true");
    }
  }

  @Test
  void rejectsUnknownOptionsListingTheKnownOnes() {
    assertThatThrownBy(() -> Workers.backend(Map.of("heapsize", "1g")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option \"heapsize\"")
        .hasMessageContaining("heap, jvmOptions, inheritJvmOptions, env, idleTimeout, startTimeout, reuse");
    assertThatThrownBy(() -> Processes.builder().heap("lots").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"512m\"");
  }

  @Test
  void startsWorkersWithTheOptionsGiven() {
    try (Backend b = Processes.builder().heap("200m").jvmOptions("-Djoblib4j.test.flag=on")
        .env(Map.of("JOBLIB4J_TEST_VAR", "yes")).reuse(false).build();
         Parallel p = Parallel.builder().backend(b).nJobs(1).build()) {
      String r = p.<String>run(List.of(delayed(() -> Runtime.getRuntime().maxMemory() / (1 << 20) + " "
          + System.getProperty("joblib4j.test.flag") + " " + System.getenv("JOBLIB4J_TEST_VAR")))).get(0);
      assertThat(r).matches("(19\\d|200) on yes");
    }
  }

  @Test
  void idleWorkersExitAfterTheIdleTimeout() throws Exception {
    ProcessesBackend b = Workers.backend(Map.of("idleTimeout", Duration.ofMillis(800)));
    Set<Long> pids;
    try (Parallel p = Workers.on(b, 2)) {
      pids = bothWorkers(p);
    }
    for (long pid : pids) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).as("worker %d exits when idle", pid).isTrue();
    }
  }

  @Test
  void closingABackendWithItsOwnWorkersStopsThem() throws Exception {
    ProcessesBackend b = Workers.backend(Map.of("reuse", false));
    Set<Long> pids;
    try (Parallel p = Workers.on(b, 2)) {
      pids = bothWorkers(p);
      assertThat(b.ownedWorkerPids()).containsAll(pids);
    }
    b.close();
    for (long pid : pids) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).as("worker %d stops", pid).isTrue();
    }
  }

  static final class DomainException extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;

    DomainException(String m, Throwable cause) {
      super(m, cause);
    }
  }

  static final class HoldsAThread extends RuntimeException {
    @Serial private static final long serialVersionUID = 1L;
    @SuppressWarnings("unused")
    private final Object thread = Thread.currentThread(); // Thread is not Serializable

    HoldsAThread(String m) {
      super(m);
    }
  }
}
