package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.joblib4j.Parallel;
import io.joblib4j.ParallelConfig;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** joblib's worker thread limits (acceptance item 26), for JVM and native thread pools. */
@Timeout(120)
class ThreadLimitsIT {

  @Test
  void workersGetTheThreadBudgetForTheCommonPoolNativeLibrariesAndNestedCalls() {
    assumeTrue(System.getenv("OMP_NUM_THREADS") == null, "this JVM's environment sets OMP_NUM_THREADS");
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).innerThreads(3).build()) {
      String r = p.<String>run(List.of(delayed(() -> ForkJoinPool.getCommonPoolParallelism() + " "
          + System.getenv("OMP_NUM_THREADS") + " " + System.getenv("OPENBLAS_NUM_THREADS") + " "
          + System.getenv("MKL_NUM_THREADS") + " " + ParallelConfig.current().threadBudget() + " "
          + Parallel.effectiveNJobs(-1)))).get(0);
      assertThat(r).isEqualTo("3 3 3 3 3 3");
    }
  }

  @Test
  void theDefaultBudgetIsTheCpuCountOverNJobs() {
    int expected = Math.max(1, Parallel.cpuCount() / 2);
    try (Parallel p = Workers.processes(2)) {
      assertThat(p.<Integer>run(List.of(delayed(ForkJoinPool::getCommonPoolParallelism)))).containsExactly(expected);
    }
  }

  @Test
  void variablesSetInThisJvmsEnvironmentWinOverTheBudget() {
    LaunchSpec spec = new LaunchSpec("java", List.of(), List.of(), Map.of("NUMBA_NUM_THREADS", "5"));
    Map<String, String> env = spec.environment(2, Map.of("OMP_NUM_THREADS", "7", "PATH", "/bin"));
    assertThat(env).containsEntry("OMP_NUM_THREADS", "7").containsEntry("OPENBLAS_NUM_THREADS", "2")
        .containsEntry("NUMBA_NUM_THREADS", "5").containsEntry("PATH", "/bin");
  }

  @Test
  void anotherBudgetGetsFreshWorkersAndRetiresTheOldOnes() throws Exception {
    Set<Long> one = pids(1);
    Set<Long> two = pids(2);
    assertThat(two).doesNotContainAnyElementsOf(one);
    for (long pid : one) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(15))).as("worker %d of the old budget retires", pid).isTrue();
    }
  }

  private static Set<Long> pids(int inner) {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).innerThreads(inner).build()) {
      return new HashSet<>(p.run(IntStream.range(0, 10).mapToObj(i -> delayed(x -> {
        Thread.sleep(5);
        return Workers.pid();
      }, i))));
    }
  }
}
