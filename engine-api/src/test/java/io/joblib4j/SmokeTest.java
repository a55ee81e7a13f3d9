package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void smoke() {
    List<Double> roots = Parallel.nJobs(2)
        .run(IntStream.range(0, 10).mapToObj(i -> delayed(Math::sqrt, (double) i * i)));
    assertThat(roots).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
    long t0 = System.nanoTime();
    List<Integer> r = Parallel.nJobs(2).run(IntStream.range(0, 100_000).mapToObj(i -> delayed(x -> x + 1, i)));
    System.out.println("100k: " + (System.nanoTime() - t0) / 1e6 + " ms");
    assertThat(r).hasSize(100_000);
    assertThat(r.get(99_999)).isEqualTo(100_000);
    try (Parallel p = Parallel.builder().nJobs(2).verbose(5).build()) {
      p.run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> { Thread.sleep(20); return i; })));
    }
  }
}
