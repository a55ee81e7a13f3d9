package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Parallel;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Large arguments on local[2], where executor tasks run in this JVM: a broadcast hands tasks the
 * driver's own object, a copy in the batch would be a new one. (The local-cluster IT counts what
 * reaches separate executor JVMs.)
 */
class SparkSharingTest extends OnLocalSpark {
  static double[] big;
  static final double[] small = new double[10];

  @BeforeAll
  static void start() {
    big = new double[300_000]; // 2.4 MB, over the default maxNbytes of 1 MiB
    big[7] = 7;
  }

  static boolean sameAsDriver(double[] a) {
    return a == big && a[7] == 7;
  }

  static boolean sameAsSmall(double[] a) {
    return a == small;
  }

  @Test
  void anArgumentOverMaxNbytesReachesTasksAsTheBroadcastNotACopy() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      List<Boolean> same = p.run(IntStream.range(0, 8).mapToObj(i -> delayed(SparkSharingTest::sameAsDriver, big)));
      assertThat(same).containsOnly(true).hasSize(8);
    }
  }

  static double first(io.joblib4j.array.NDArray a) {
    return a.getDouble(0);
  }

  /** Spark closes AutoCloseable broadcast values when it destroys them; the caller's must survive. */
  @Test
  void aSharedCloseableArgumentIsStillUsableAfterTheCall() {
    io.joblib4j.array.NDArray array = io.joblib4j.array.NDArray.zeros(io.joblib4j.array.DType.FLOAT64, 300_000);
    array.setDouble(3.0, 0);
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      assertThat(p.run(IntStream.range(0, 4).mapToObj(i -> delayed(SparkSharingTest::first, array))))
          .containsOnly(3.0);
    }
    assertThat(array.getDouble(0)).isEqualTo(3.0);
    assertThat(array.getDouble(299_999)).isZero();
  }

  @Test
  void equalLargeArgumentsBuiltSeparatelyShareOneBroadcastByContentHash() {
    double[] equalCopy = big.clone();
    long broadcasts = io.joblib4j.spark.internal.ChannelStats.broadcasts();
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).batchSize(1).build()) {
      List<Boolean> same = p.run(IntStream.range(0, 6)
          .mapToObj(i -> delayed(SparkSharingTest::sameAsDriver, i % 2 == 0 ? big : equalCopy)));
      assertThat(same).as("both reach tasks as the one broadcast of big").containsOnly(true);
    }
    assertThat(io.joblib4j.spark.internal.ChannelStats.broadcasts() - broadcasts).isEqualTo(1);
  }

  @Test
  void sharingCanBeTurnedOffAndSmallArgumentsTravelInTheBatch() {
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).maxNbytes("none").build()) {
      assertThat(p.run(List.of(delayed(SparkSharingTest::sameAsDriver, big)))).containsExactly(false);
    }
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      assertThat(p.run(List.of(delayed(SparkSharingTest::sameAsSmall, small)))).containsExactly(false);
    }
  }
}
