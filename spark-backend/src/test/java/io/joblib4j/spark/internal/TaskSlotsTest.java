package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** nJobs(-1)'s count of task slots, from a Spark configuration and what has registered. */
class TaskSlotsTest {
  private static SparkConf yarn() {
    return new SparkConf(false).set("spark.master", "yarn");
  }

  @Test
  void aFixedSizeClusterCountsTheExecutorsAskedForBeforeTheyAllRegistered() {
    // spark-submit --num-executors 2 --executor-cores 1 on a busy YARN: the driver started its first
    // job with one executor registered (Spark waits 30 s for the rest by default)
    SparkConf conf = yarn().set("spark.executor.instances", "2").set("spark.executor.cores", "1");
    assertThat(TaskSlots.cores(conf, "yarn", 1, () -> 2)).isEqualTo(2);
    assertThat(TaskSlots.cores(conf, "yarn", 0, () -> 2)).as("none registered yet").isEqualTo(2);
    assertThat(TaskSlots.cores(conf, "yarn", 3, () -> 3)).as("more than asked for (a restarted one)").isEqualTo(3);
  }

  @Test
  void underDynamicAllocationOnlyTheRegisteredExecutorsCount() {
    SparkConf conf = yarn().set("spark.dynamicAllocation.enabled", "true")
        .set("spark.executor.instances", "4").set("spark.executor.cores", "2");
    assertThat(TaskSlots.cores(conf, "yarn", 1, () -> 2)).isEqualTo(2);
    assertThat(TaskSlots.cores(conf, "yarn", 0, () -> 2)).as("none yet: the caller picks a starting size").isZero();
  }

  @Test
  void withoutExecutorCoresTheDefaultParallelismCountsTheCores() {
    SparkConf conf = yarn().set("spark.executor.instances", "2");
    assertThat(TaskSlots.cores(conf, "yarn", 2, () -> 8)).isEqualTo(8);
    assertThat(TaskSlots.cores(conf, "yarn", 1, () -> 2)).isEqualTo(2);
  }

  @Test
  void localMastersCountTheirThreads() {
    assertThat(TaskSlots.cores(new SparkConf(false), "local[3]", 0, () -> 3)).isEqualTo(3);
    assertThat(TaskSlots.cores(new SparkConf(false), "local", 0, () -> 1)).isEqualTo(1);
  }
}
