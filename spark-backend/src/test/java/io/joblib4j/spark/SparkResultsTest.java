package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Results on local[2]: order, the backend by name, reuse. Streaming, unordered results and nesting
 * are part of the backend contract ({@link SparkBackendContractIT}, on a local cluster).
 */
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
  void emptyInputGivesNoResults() {
    try (Parallel p = parallel()) {
      assertThat(p.run(new ArrayList<Delayed<Integer>>())).isEmpty();
    }
  }
}
