package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.joblib4j.JoblibException;
import io.joblib4j.Parallel;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Results too large to come back fail their call at once with a joblib4j error naming the size,
 * the limit and the settings — on the direct channel and on the job path — and the executor that
 * made them stops serializing at the limit instead of building the whole serialized copy: here a
 * 450 MB result against a 1 MiB limit, in an executor of 768 MB, which a full copy would run out
 * of memory (and Spark would then kill the executor and retry the task on another, four times).
 * The same check, with the limit a frame can carry (just under 2 GiB) when no setting is lower,
 * is what refuses a result over 2 GiB.
 */
@Timeout(300)
class SparkLargeResultsIT {
  private static final long DRIVER_PID = ProcessHandle.current().pid();

  /**
   * Executors with fresh heaps: the 450 MB result needs 450 MB of contiguous free heap in an executor
   * of 768 MB, and after the ITs before it had used the shared cluster's executors, one run's
   * executor failed the allocation itself (OutOfMemoryError at the new byte[], before any limit).
   */
  @BeforeAll
  static void freshExecutors() {
    ClusterSpark.stopShared();
  }

  static long pid(int i) {
    return ProcessHandle.current().pid();
  }

  @Test
  void aResultFarOverTheLimitFailsAtOnceAndTheExecutorsSurviveIt() {
    for (String channel : List.of("driver", "job")) {
      try (SparkBackend backend = new SparkBackend(ClusterSpark.shared().sc(), Map.of("maxResultSize", "1m",
          "channel", channel)); Parallel p = Parallel.builder().backend(backend).nJobs(2).batchSize(1).build()) {
        Throwable t = catchThrowable(() -> p.run(List.of(delayed(() -> new byte[450 << 20]))));
        assertThat(t).as(channel).isInstanceOf(JoblibException.class)
            .hasMessageContaining("more than the 1048576 bytes allowed")
            .hasMessageContaining("spark.driver.maxResultSize")
            .hasMessageContaining("spark.joblib4j.maxResultSize");
        assertThat(t.getMessage()).as("names the size").containsPattern("are 4[0-9]{8} bytes serialized");
        List<Long> pids = p.run(IntStream.range(0, 40).mapToObj(i -> delayed(SparkLargeResultsIT::pid, i)));
        assertThat(pids.stream().collect(Collectors.toSet())).as("%s: executors still up", channel)
            .doesNotContain(DRIVER_PID).isNotEmpty();
      }
    }
  }
}
