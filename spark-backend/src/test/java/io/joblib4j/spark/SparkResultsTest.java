package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ParallelConfig;
import io.joblib4j.ResultIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Results on local[2]: order, streaming, unordered streaming, reuse, nesting. */
class SparkResultsTest extends OnLocalSpark {

  private static Parallel parallel() {
    return Parallel.builder().backend(spark).nJobs(2).build();
  }

  @Test
  void runReturnsEveryResultInInputOrder() {
    try (Parallel p = parallel()) {
      List<Integer> out = p.run(IntStream.range(0, 10_000).mapToObj(i -> delayed(x -> x * 2, i)));
      assertThat(out).hasSize(10_000);
      assertThat(out).isEqualTo(IntStream.range(0, 10_000).map(i -> i * 2).boxed().collect(Collectors.toList()));
    }
  }

  @Test
  void backendIsFoundByNameThroughServiceLoader() {
    LocalSpark.session();
    try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).build()) {
      assertThat(p.effectiveNJobs()).isEqualTo(2);
      assertThat(p.map((Integer x) -> x + 1, List.of(1, 2, 3))).containsExactly(2, 3, 4);
    }
  }

  @Test
  void iterateStreamsResultsBeforeTheSlowestTaskEnds() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      long start = System.nanoTime();
      ResultIterator<Integer> it = p.iterate(IntStream.range(0, 4).mapToObj(i -> delayed(() -> {
        Thread.sleep(i == 3 ? 3000 : 50);
        return i;
      })));
      assertThat(it.next()).isEqualTo(0);
      long firstMillis = (System.nanoTime() - start) / 1_000_000;
      List<Integer> rest = new ArrayList<>();
      it.forEachRemaining(rest::add);
      assertThat(rest).containsExactly(1, 2, 3);
      assertThat(firstMillis).as("the first result arrives while task 3 still sleeps").isLessThan(2500);
    }
  }

  @Test
  void iterateUnorderedGivesTheFastestFirst() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      List<Integer> order = new ArrayList<>();
      p.<Integer>iterateUnordered(List.of(
          delayed(() -> { Thread.sleep(1500); return 0; }),
          delayed(() -> 1),
          delayed(() -> 2),
          delayed(() -> 3))).forEachRemaining(order::add);
      assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3);
      assertThat(order.get(3)).as("the slow task comes last").isEqualTo(0);
    }
  }

  @Test
  void aParallelInstanceRunsSeveralCallsOnTheSameBackend() {
    try (Parallel p = parallel()) {
      for (int round = 0; round < 3; round++) {
        int r = round;
        assertThat(p.run(IntStream.range(0, 50).mapToObj(i -> delayed(() -> i + r))))
            .isEqualTo(IntStream.range(0, 50).map(i -> i + r).boxed().collect(Collectors.toList()));
      }
    }
  }

  @Test
  void aNestedParallelInsideATaskRunsOnThreadsOfTheExecutor() {
    try (Parallel p = parallel()) {
      List<String> inner = p.run(IntStream.range(0, 2).mapToObj(i -> delayed(() -> {
        try (Parallel nested = Parallel.builder().nJobs(2).build()) {
          List<String> threads = nested.run(IntStream.range(0, 4)
              .mapToObj(j -> delayed(() -> Thread.currentThread().getName())));
          return ParallelConfig.current().backendName().orElse("?") + " " + threads.get(0);
        }
      })));
      assertThat(inner).allSatisfy(s -> assertThat(s).startsWith("threads joblib4j-threads"));
    }
  }

  @Test
  void emptyInputGivesNoResults() {
    try (Parallel p = parallel()) {
      assertThat(p.run(new ArrayList<Delayed<Integer>>())).isEmpty();
    }
  }
}
