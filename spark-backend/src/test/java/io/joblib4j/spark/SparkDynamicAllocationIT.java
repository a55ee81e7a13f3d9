package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dynamic allocation starting from zero executors (joblib-spark #7, #19): {@code nJobs(-1)} must
 * not resolve to nothing, and the call must make Spark add executors instead of waiting forever.
 */
class SparkDynamicAllocationIT {
  private static JavaSparkContext jsc;

  @BeforeAll
  static void start() {
    ClusterSpark.stopShared(); // one SparkContext per JVM: this test needs its own
    jsc = new JavaSparkContext(ClusterSpark.conf("joblib4j-dynamic-allocation-it", 2, 1024)
        .set("spark.scheduler.minRegisteredResourcesRatio", "0")
        .set("spark.dynamicAllocation.enabled", "true")
        .set("spark.dynamicAllocation.shuffleTracking.enabled", "true")
        .set("spark.dynamicAllocation.initialExecutors", "0")
        .set("spark.dynamicAllocation.minExecutors", "0")
        .set("spark.dynamicAllocation.maxExecutors", "2"));
  }

  @AfterAll
  static void stop() {
    jsc.stop();
  }

  @Test
  void withNoExecutorYetTheCallStartsAndSparkScalesUp() {
    assertThat(blockManagers()).as("only the driver").isEqualTo(1);
    try (SparkBackend spark = new SparkBackend(jsc);
         Parallel p = Parallel.builder().backend(spark).nJobs(-1).build()) {
      assertThat(p.effectiveNJobs()).as("a starting size, not 0").isEqualTo(2);
      List<Integer> out = p.run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> i * i)));
      assertThat(out).isEqualTo(IntStream.range(0, 20).map(i -> i * i).boxed().collect(Collectors.toList()));
    }
    assertThat(blockManagers()).as("Spark added executors").isGreaterThan(1);
  }

  /**
   * The block managers registered with the driver, its own included. Not the status tracker's
   * executors: those come from the listener bus, which a busy machine can leave seconds behind, so
   * right after start it may not list even the driver.
   */
  private static int blockManagers() {
    return jsc.sc().getExecutorMemoryStatus().size();
  }
}
