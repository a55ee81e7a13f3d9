package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class QuickTest {
  @Test
  void quick() {
    long t0 = System.nanoTime();
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).build()) {
      List<Long> pids = p.run(IntStream.range(0, 10).mapToObj(i -> delayed(() -> ProcessHandle.current().pid())));
      System.out.println("first call " + (System.nanoTime() - t0) / 1e6 + " ms " + pids);
      List<Integer> r = null;
      for (int k = 0; k < 6; k++) {
      long t1 = System.nanoTime();
      r = p.run(IntStream.range(0, 100_000).mapToObj(i -> delayed(x -> x + 1, i)));
      System.out.println("100k " + (System.nanoTime() - t1) / 1e6 + " ms");
      }
      assertThat(r.get(99_999)).isEqualTo(100_000);
      assertThat(pids).doesNotContain(ProcessHandle.current().pid());
    }
  }
}
