package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.WorkerCrashedException;
import io.joblib4j.testing.Rendezvous.Gate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** loky's test_deadlock_kill, a hundred times over: every kill is detected, nothing hangs or leaks. */
class RepeatedKillIT {
  static final int KILLS = 100;

  @Test
  @Timeout(240)
  void killingABusyWorker100TimesIsDetectedEachTimeWithNoHangAndNoOrphan() throws Exception {
    ProcessesBackend b = Workers.backend(Map.of("reuse", false));
    List<Long> killed = new ArrayList<>();
    long slowest = 0;
    try (b; Parallel p = Workers.on(b, 1)) {
      for (int i = 0; i < KILLS; i++) {
        Gate running = Workers.announcing("k" + i);
        ResultIterator<Integer> it = p.iterate(List.of(CrashIT.sleeper(running)));
        long pid = Workers.awaitAnnounced(running);
        Workers.handle(pid).orElseThrow().destroyForcibly();
        long t0 = System.nanoTime();
        assertThatThrownBy(it::hasNext)
            .isInstanceOfSatisfying(WorkerCrashedException.class, e -> assertThat(e.pid()).isEqualTo(pid));
        slowest = Math.max(slowest, System.nanoTime() - t0);
        killed.add(pid);
      }
      assertThat(slowest).as("slowest detection, ns").isLessThan(Duration.ofSeconds(2).toNanos());
      for (long pid : killed) {
        assertThat(Workers.alive(pid)).as("killed worker %d is gone", pid).isFalse();
      }
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (b.ownedWorkerPids().isEmpty() && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(b.ownedWorkerPids()).as("the replacement of the last worker killed").hasSize(1);
    }
    for (long pid : b.ownedWorkerPids()) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).isTrue();
    }
    long strays = ProcessHandle.current().children()
        .filter(h -> h.info().commandLine().orElse("").contains(WorkerMain.class.getName()))
        .filter(h -> killed.contains(h.pid())).count();
    assertThat(strays).isZero();
  }
}
