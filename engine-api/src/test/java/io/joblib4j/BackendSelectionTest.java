package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.testing.Captured;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** joblib's test_backend_hinting_and_constraints and friends. */
class BackendSelectionTest {

  static String workerOf(Parallel p) {
    try (p) {
      return p.run(Stream.of(delayed(() -> Thread.currentThread().getName()), delayed(() -> "x"))).get(0);
    }
  }

  @Test
  void threadsAreTheDefault() {
    assertThat(workerOf(Parallel.nJobs(2))).contains("joblib4j-threads");
  }

  @Test
  void preferThreadsPicksThreads() {
    assertThat(workerOf(Parallel.builder().nJobs(2).prefer(Prefer.THREADS).build())).contains("joblib4j-threads");
  }

  @Test
  void aHintDoesNotOverrideAnExplicitBackend() {
    assertThat(workerOf(Parallel.builder().backend("serializing").nJobs(2).prefer("threads").build()))
        .contains("serializing");
  }

  @Test
  void requireSharedMemPicksThreadsWhenNoBackendIsNamed() {
    assertThat(workerOf(Parallel.builder().nJobs(2).require(Require.SHAREDMEM).build())).contains("joblib4j-threads");
  }

  @Test
  void requireSharedMemWithAnExplicitBackendThatLacksItIsAnError() {
    assertThatThrownBy(() -> workerOf(Parallel.builder().backend("serializing").nJobs(2).require("sharedmem").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"serializing\" does not support shared memory");
  }

  @Test
  void requireSharedMemSwitchesAConfiguredBackendToThreadsWithOneJob() {
    try (ParallelConfig.Scope s = ParallelConfig.backend("serializing").nJobs(4).apply()) {
      try (Parallel p = Parallel.builder().require(Require.SHAREDMEM).build()) {
        assertThat(p.effectiveNJobs()).isEqualTo(1);
      }
      String out = Captured.stdout(() -> {
        try (Parallel p = Parallel.builder().require(Require.SHAREDMEM).nJobs(2).verbose(10).build()) {
          assertThat(p.effectiveNJobs()).isEqualTo(2); // an explicit nJobs still applies
        }
      });
      assertThat(out).contains("instead of serializing");
    }
  }

  @Test
  void preferProcessesWithRequireSharedMemIsAContradiction() {
    assertThatThrownBy(() -> Parallel.builder().prefer(Prefer.PROCESSES).require(Require.SHAREDMEM).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contradicts");
  }

  /** joblib's test_invalid_backend. */
  @Test
  void anUnknownBackendNameListsTheAvailableOnes() {
    assertThatThrownBy(() -> Parallel.builder().backend("nope").nJobs(2).build().run(List.of(delayed(() -> 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown backend \"nope\"")
        .hasMessageContaining("sequential")
        .hasMessageContaining("threads");
  }

  @Test
  void aMissingSparkBackendSaysWhichArtifactToAdd() {
    assertThatThrownBy(() -> Parallel.builder().backend("spark").build().effectiveNJobs())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("joblib4j-spark-backend_2.13");
  }

  /** joblib's test_invalid_njobs. */
  @Test
  void zeroJobsIsRejectedWithAClearMessage() {
    assertThatThrownBy(() -> Parallel.nJobs(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nJobs == 0 has no meaning");
  }

  /** joblib's effective_n_jobs rules. */
  @Test
  void negativeJobsCountFromTheCpuCount() {
    int cpus = Parallel.cpuCount();
    assertThat(cpus).isPositive();
    assertThat(Parallel.effectiveNJobs(-1)).isEqualTo(cpus);
    assertThat(Parallel.effectiveNJobs(-2)).isEqualTo(Math.max(cpus - 1, 1));
    assertThat(Parallel.effectiveNJobs(-1000)).isEqualTo(1);
    assertThat(Parallel.effectiveNJobs(7)).isEqualTo(7); // oversubscription is allowed
    try (Parallel p = Parallel.builder().build()) {
      assertThat(p.effectiveNJobs()).isEqualTo(1); // unset: the threads backend's default, as joblib
    }
  }
}
