package io.joblib4j.benchmarks.firstcall;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A short program as a spark-submit driver, a command line tool or a batch job is: one {@code
 * Parallel} call on the processes backend (2 workers start, 4 tiny tasks), then exit. Prints
 * {@code FIRST_CALL_MS <ms>} (from before the call to its results) and {@code SECOND_CALL_MS}.
 */
public final class FirstCallMain {
  private FirstCallMain() {}

  public static void main(String[] args) {
    long start = System.nanoTime();
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).build()) {
      List<Integer> r = p.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x + 1, i)));
      long first = System.nanoTime();
      p.run(IntStream.range(0, 4).mapToObj(i -> delayed(x -> x + 1, i)));
      long second = System.nanoTime();
      if (!r.equals(List.of(1, 2, 3, 4))) {
        throw new IllegalStateException("wrong results " + r);
      }
      System.out.printf("FIRST_CALL_MS %.1f%nSECOND_CALL_MS %.1f%nJVM_UPTIME_BEFORE_CALL_MS %d%n",
          (first - start) / 1e6, (second - first) / 1e6,
          ManagementFactory.getRuntimeMXBean().getUptime() - (System.nanoTime() - start) / 1_000_000);
    }
  }
}
