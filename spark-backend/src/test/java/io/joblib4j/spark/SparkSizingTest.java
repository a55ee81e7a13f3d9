package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.spi.Backends;
import io.joblib4j.spi.support.Warnings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** nJobs against Spark's task slots, options, and Spark Connect without its module. */
class SparkSizingTest extends OnLocalSpark {

  @Test
  void minusOneIsEveryTaskSlotAndMinusTwoAllButOne() {
    assertThat(spark.capacity()).isEqualTo(2);
    assertThat(spark.effectiveNJobs(-1)).isEqualTo(2);
    assertThat(spark.effectiveNJobs(-2)).isEqualTo(1);
    assertThat(spark.effectiveNJobs(-5)).isEqualTo(1);
    assertThat(spark.traits().defaultNJobs()).as("unset nJobs means all slots").isEqualTo(-1);
    try (Parallel p = Parallel.builder().backend(spark).build()) {
      assertThat(p.effectiveNJobs()).isEqualTo(2);
    }
  }

  @Test
  void moreJobsThanSlotsWarnsAndStillFinishes() {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Runnable remove = Warnings.addHook((source, message) -> warnings.add(message));
    try (Parallel p = Parallel.builder().backend(spark).nJobs(5).build()) {
      List<Integer> out = p.run(IntStream.range(0, 40).mapToObj(i -> delayed(() -> i)));
      assertThat(out).isEqualTo(IntStream.range(0, 40).boxed().collect(Collectors.toList()));
    } finally {
      remove.run();
    }
    assertThat(warnings).anyMatch(w -> w.contains("nJobs(5)") && w.contains("2 task slots"));
    // the workers that never got a slot were dropped: the next call does not queue behind them
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      long start = System.nanoTime();
      assertThat(p.run(List.of(delayed(() -> 1)))).containsExactly(1);
      assertThat((System.nanoTime() - start) / 1e9).isLessThan(10);
    }
  }

  @Test
  void unknownBackendOptionsAreRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> new SparkBackend(LocalSpark.session().sparkContext(), Map.of("port", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("driver.port").hasMessageContaining("maxResultSize");
    assertThatThrownBy(() -> new SparkBackend(LocalSpark.session().sparkContext(), Map.of("driver.port", "x")))
        .hasMessageContaining("spark.joblib4j.driver.port");
  }

  @Test
  void sparkConnectWithoutTheConnectModuleIsRefusedSayingWhatToAdd() {
    LocalSpark.session();
    System.setProperty("spark.remote", "sc://localhost:15002");
    try {
      assertThatThrownBy(() -> Backends.create("spark", Map.of()))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("Spark Connect")
          .hasMessageContaining("spark.remote=sc://localhost:15002")
          .hasMessageContaining("joblib4j-spark-connect_2.13")
          .hasMessageContaining("spark.api.mode=classic");
    } finally {
      System.clearProperty("spark.remote");
    }
  }
}
