package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.testing.Captured;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** joblib's nested-parallelism rules (test_nested_parallelism_limit and friends). */
@Timeout(60)
class NestedParallelTest {

  /** Where a Parallel created here would run, and with how many jobs. */
  static String nestedRunsOn(Parallel inner) {
    String caller = Thread.currentThread().getName();
    try (inner) {
      String thread = inner.run(Stream.of(delayed(() -> Thread.currentThread().getName()), delayed(() -> "")))
          .get(0);
      return inner.effectiveNJobs() + "@" + (thread.equals(caller) ? "caller" : "threads");
    }
  }

  @Test
  void aNestedCallWithoutNJobsRunsSequentiallyInsideTheTask() {
    List<String> inner = Parallel.nJobs(2).run(Stream.of(delayed(() -> nestedRunsOn(Parallel.builder().build()))));
    assertThat(inner).containsExactly("1@caller");
  }

  @Test
  void aNestedCallWithExplicitJobsRunsOnThreadsAtTheFirstLevel() {
    List<String> inner = Parallel.nJobs(2).run(Stream.of(delayed(() -> nestedRunsOn(Parallel.nJobs(2)))));
    assertThat(inner).containsExactly("2@threads");
  }

  @Test
  void theNestingLevelIsVisibleInsideTasks() {
    List<Integer> levels = Parallel.nJobs(2).run(Stream.of(delayed(() -> {
      int mine = ParallelConfig.current().nestingLevel();
      int below = Parallel.nJobs(2).run(Stream.of(delayed(() -> ParallelConfig.current().nestingLevel()))).get(0);
      return mine * 10 + below;
    })));
    assertThat(levels).containsExactly(12);
    assertThat(ParallelConfig.current().nestingLevel()).isZero();
  }

  @Test
  void tasksAreToldTheirThreadBudgetAndMinusOneMeansIt() {
    int cpus = Parallel.cpuCount();
    List<Integer> budgets = Parallel.builder().nJobs(2).build()
        .run(Stream.of(delayed(() -> ParallelConfig.current().threadBudget())));
    assertThat(budgets).containsExactly(Math.max(1, cpus / 2));
    List<Integer> innerJobs = Parallel.builder().nJobs(2).innerThreads(3).build()
        .run(Stream.of(delayed(() -> Parallel.builder().nJobs(-1).build().effectiveNJobs())));
    assertThat(innerJobs).containsExactly(3);
  }

  /** joblib's test_nested_backend_in_sequential: a one-job call changes nothing for nested ones. */
  @Test
  void aSequentialTopLevelLeavesNestedCallsAlone() {
    try (ParallelConfig.Scope s = ParallelConfig.backend("threads").nJobs(2).apply()) {
      List<String> inner = Parallel.nJobs(1).run(Stream.of(delayed(() -> nestedRunsOn(Parallel.builder().build()))));
      assertThat(inner).containsExactly("2@threads");
    }
  }

  /** joblib's test_thread_bomb_mitigation: unbounded recursion does not multiply threads. */
  @Test
  void deepRecursionRunsSequentiallyFromTheSecondLevel() {
    int before = Thread.activeCount();
    List<String> warnings = Captured.warnings(() -> assertThat(recurse(8, false)).isEqualTo(8));
    assertThat(warnings).isEmpty();
    // 2 workers at the top, 2 per task at the first level, none deeper: not 2^8
    assertThat(Thread.activeCount() - before).isLessThan(20);
  }

  @Test
  void explicitThreadsBeyondTheNestingLimitRunSequentiallyWithAWarning() {
    int before = Thread.activeCount();
    List<String> warnings = Captured.warnings(() -> assertThat(recurse(8, true)).isEqualTo(8));
    assertThat(warnings).anyMatch(w -> w.contains("runs sequentially"));
    assertThat(Thread.activeCount() - before).isLessThan(40);
  }

  static int recurse(int remaining, boolean explicitThreads) {
    if (remaining == 0) {
      return 0;
    }
    Parallel.Builder b = Parallel.builder().nJobs(2);
    if (explicitThreads) {
      b.backend("threads");
    }
    try (Parallel p = b.build()) {
      return 1 + p.run(IntStream.range(0, 2).mapToObj(i ->
          delayed(NestedParallelTest::recurse, remaining - 1, explicitThreads))).get(0);
    }
  }
}
