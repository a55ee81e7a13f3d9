package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Two million tiny tasks streamed through {@code iterate()} on Spark (local[2]): the driver's heap
 * must not grow with the number of tasks. Measured as the heap in use after a full GC at every
 * tenth of the call; what is in flight varies by a few MiB between two moments, so the least of
 * three moments is the call's baseline, compared between the first and the last third. A driver
 * that kept a few bytes per task (the argument-size memo once remembered every boxed argument)
 * grows by tens of MiB over the call.
 */
class SparkStreamingHeapTest extends OnLocalSpark {
  private static final long TASKS = 2_000_000L;
  private static final long MAX_GROWTH = 16L << 20;

  static long plusOne(long x) {
    return x + 1;
  }

  @Test
  void theDriverHeapStaysFlatWhileTwoMillionTasksStream() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    List<Long> retained = new ArrayList<>();
    long count = 0;
    long sum = 0;
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build();
         ResultIterator<Long> results = p.iterate(LongStream.range(0, TASKS)
             .mapToObj(i -> delayed(SparkStreamingHeapTest::plusOne, i)))) {
      while (results.hasNext()) {
        long r = results.next();
        assertThat(r).isEqualTo(count + 1);
        sum += r;
        count++;
        if (count % (TASKS / 10) == 0 && count < TASKS) {
          System.gc();
          retained.add(memory.getHeapMemoryUsage().getUsed());
        }
      }
    }
    System.out.println("driver heap retained at each tenth of " + TASKS + " streamed tasks: " + retained);
    assertThat(count).isEqualTo(TASKS);
    assertThat(sum).isEqualTo(TASKS * (TASKS + 1) / 2);
    long early = retained.subList(0, 3).stream().min(Long::compare).orElseThrow();
    long late = retained.subList(6, 9).stream().min(Long::compare).orElseThrow();
    assertThat(late - early)
        .as("driver heap retained after 1.4-1.8M tasks beyond what was retained after 0.2-0.6M (%s)", retained)
        .isLessThan(MAX_GROWTH);
  }
}
