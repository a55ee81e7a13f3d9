package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.WorkerCrashedException;
import io.joblib4j.testing.Rendezvous.Gate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Workers that die or hang fail the call with a clear error, are replaced, and never hang it. */
class CrashIT {
  @Test
  @Timeout(60)
  void aBusyWorkerKilledMinus9FailsTheCallNamingItsPidAndSignal() throws Exception {
    try (Parallel p = Workers.processes(1)) {
      Gate running = Workers.announcing("a");
      ResultIterator<Integer> it = p.iterate(List.of(sleeper(running)));
      long pid = Workers.awaitAnnounced(running);
      Workers.handle(pid).orElseThrow().destroyForcibly();
      long t0 = System.nanoTime();
      assertThatThrownBy(it::hasNext) // the failure ends the call: no close needed
          .isInstanceOfSatisfying(WorkerCrashedException.class, e -> {
            assertThat(e.pid()).isEqualTo(pid);
            assertThat(e.exitCode()).hasValue(137);
            assertThat(e.signal()).hasValue(9);
            assertThat(e.likelyCause()).isEqualTo("killed by SIGKILL");
          })
          .hasMessageContaining("worker process " + pid + " died while running")
          .hasMessageContaining("exit code 137 (signal 9, SIGKILL)")
          .hasMessageContaining("out-of-memory killer");
      assertThat(System.nanoTime() - t0).as("detected at once").isLessThan(Duration.ofSeconds(2).toNanos());
      List<Long> after = p.run(List.of(delayed(Workers::pid)));
      assertThat(after.get(0)).isNotEqualTo(pid);
    }
  }

  @Test
  @Timeout(60)
  void aWorkerOutOfHeapIsReportedAsSuchWithItsHeapSize() {
    try (Parallel p = Workers.on(Workers.backend(Map.of("heap", "64m", "reuse", false)), 1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> {
        List<long[]> hog = new ArrayList<>();
        while (true) {
          hog.add(new long[1 << 20]);
        }
      }))))
          .isInstanceOfSatisfying(WorkerCrashedException.class, e -> {
            assertThat(e.exitCode()).hasValue(WorkerExitCodes.OUT_OF_MEMORY);
            assertThat(e.likelyCause()).isEqualTo("ran out of Java heap");
          })
          .hasMessageContaining("Java heap space")
          .hasMessageContaining("maximum heap was 6")
          .hasMessageContaining("option(\"heap\"");
      assertThat(p.run(List.of(delayed(() -> 5)))).containsExactly(5);
    }
  }

  @Test
  @Timeout(60)
  void runtimeHaltIsReportedWithItsExitCodeAndHalt3IsNotMistakenForOutOfMemory() {
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> {
        Runtime.getRuntime().halt(7);
        return 0;
      }))))
          .isInstanceOfSatisfying(WorkerCrashedException.class,
              e -> assertThat(e.likelyCause()).isEqualTo("exited with code 7"))
          .hasMessageContaining("Runtime.halt(7)");
      assertThatThrownBy(() -> p.run(List.of(delayed(() -> {
        Runtime.getRuntime().halt(3);
        return 0;
      }))))
          .isInstanceOfSatisfying(WorkerCrashedException.class,
              e -> assertThat(e.likelyCause()).isEqualTo("exited with code 3"))
          .hasMessageContaining("reserved for running out of heap");
      assertThat(p.run(List.of(delayed(() -> 6)))).containsExactly(6);
    }
  }

  @Test
  @Timeout(60)
  void systemExitInATaskIsReportedWithWhereItWasCalled() {
    try (Parallel p = Workers.processes(1)) {
      assertThatThrownBy(() -> p.run(List.of(delayed(CrashIT::exitFive))))
          .isInstanceOfSatisfying(WorkerCrashedException.class, e -> {
            assertThat(e.exitCode()).hasValue(5);
            assertThat(e.likelyCause()).isEqualTo("task code called System.exit(5)");
          })
          .hasMessageContaining("System.exit called at " + CrashIT.class.getName() + ".exitFive");
      assertThat(p.run(List.of(delayed(() -> 7)))).containsExactly(7);
    }
  }

  static int exitFive() {
    System.exit(5);
    return 0;
  }

  @Test
  @Timeout(60)
  void aTaskOverItsTimeoutHasItsWorkerKilledAndReplaced() throws Exception {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).timeout(Duration.ofSeconds(1)).build()) {
      long t0 = System.nanoTime();
      long pid;
      Gate running = Workers.announcing("t");
      try (ResultIterator<Integer> it = p.iterate(List.of(sleeper(running)))) {
        pid = Workers.awaitAnnounced(running);
        assertThatThrownBy(it::hasNext).isInstanceOf(TimeoutException.class);
      }
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(5))).as("the stuck worker is killed").isTrue();
      assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(20).toNanos());
      assertThat(p.run(List.of(delayed(Workers::pid))).get(0)).isNotEqualTo(pid);
    }
  }

  @Test
  @Timeout(60)
  void aFrozenWorkerTimesOutAndIsKilledEvenWhileStopped() throws Exception {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(1).timeout(Duration.ofSeconds(1)).build()) {
      long pid;
      Gate running = Workers.announcing("s");
      try (ResultIterator<Integer> it = p.iterate(List.of(sleeper(running)))) {
        pid = Workers.awaitAnnounced(running);
        assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor()).isZero();
        assertThatThrownBy(it::hasNext).isInstanceOf(TimeoutException.class);
      }
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(5))).isTrue();
      assertThat(p.run(List.of(delayed(() -> 8)))).containsExactly(8);
    }
  }

  @Test
  @Timeout(60)
  void aWorkerThatCannotStartFailsTheCallWithTheJvmsOwnError() {
    ProcessesBackend b = Workers.backend(Map.of("jvmOptions", "-XX:+NoSuchJoblib4jOption", "reuse", false));
    try (b; Parallel p = Workers.on(b, 2)) {
      assertThatThrownBy(() -> p.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x, i))))
          .isInstanceOfSatisfying(WorkerCrashedException.class,
              e -> assertThat(e.likelyCause()).isEqualTo("the worker JVM did not start"))
          .hasMessageContaining("could not start")
          .hasMessageContaining("NoSuchJoblib4jOption")
          .hasMessageContaining("jvmOptions");
    }
  }

  @Test
  @Timeout(60)
  void theFirstFailureCancelsTheOtherBusyWorkersAtOnce() throws Exception {
    try (Parallel p = Workers.processes(2)) {
      p.run(List.of(delayed(() -> 0), delayed(() -> 0))); // both workers up
      Gate running = Workers.announcing("c");
      Gate fail = Workers.rendezvous().gate("fail-" + running.name());
      List<Delayed<Integer>> tasks = new ArrayList<>();
      tasks.add(sleeper(running));
      tasks.add(delayed(() -> {
        fail.pass(); // once the other worker is busy
        throw new IllegalArgumentException("first failure");
      }));
      for (int i = 0; i < 100; i++) {
        tasks.add(delayed(() -> {
          Thread.sleep(10_000);
          return 0;
        }));
      }
      ResultIterator<Integer> it = p.iterate(tasks);
      long sleeping = Workers.awaitAnnounced(running);
      Workers.rendezvous().openGate(fail.name());
      assertThatThrownBy(it::hasNext).isInstanceOf(IllegalArgumentException.class).hasMessage("first failure");
      assertThat(Workers.awaitExit(sleeping, Duration.ofSeconds(10))).as("the busy worker was stopped").isTrue();
    }
  }

  /** A task that announces its worker and then sleeps for a minute. */
  static Delayed<Integer> sleeper(Gate running) {
    return delayed(() -> {
      Workers.announce(running);
      Thread.sleep(60_000);
      return 1;
    });
  }
}
