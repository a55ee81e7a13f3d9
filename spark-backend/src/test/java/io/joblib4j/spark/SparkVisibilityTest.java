package io.joblib4j.spark;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.Parallel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Spark UI sees of a call (progress listeners: the backend contract, {@link SparkBackendContractIT}). */
class SparkVisibilityTest extends OnLocalSpark {

  static double score(int fold) {
    return fold * 0.5;
  }

  @Test
  void theJobOfAMemoizedFunctionIsNamedForTheFunctionItWraps(@TempDir Path cache) throws Exception {
    MemoizedFn1<Integer, Double> memoized = Memory.builder(cache).verbose(0).build().cache(SparkVisibilityTest::score);
    List<String> descriptions = new CopyOnWriteArrayList<>();
    CountDownLatch heard = new CountDownLatch(1);
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart start) {
        descriptions.add(start.properties().getProperty("spark.job.description"));
        heard.countDown();
      }
    };
    spark.sparkContext().addSparkListener(listener);
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      assertThat(p.map(memoized, List.of(1, 2, 3))).containsExactly(0.5, 1.0, 1.5);
    } finally {
      heard.await(30, TimeUnit.SECONDS); // the listener bus delivers events asynchronously
      spark.sparkContext().removeSparkListener(listener);
    }
    assertThat(descriptions).isNotEmpty().allMatch(d -> d.startsWith("joblib4j Parallel: SparkVisibilityTest.score ("));
  }

  @Test
  void theJobIsNamedForTheFunctionAndTheCallersJobGroupSurvives() throws Exception {
    List<String> descriptions = new CopyOnWriteArrayList<>();
    List<String> groups = new CopyOnWriteArrayList<>();
    CountDownLatch heard = new CountDownLatch(1);
    SparkListener listener = new SparkListener() {
      @Override
      public void onJobStart(SparkListenerJobStart start) {
        descriptions.add(start.properties().getProperty("spark.job.description"));
        groups.add(start.properties().getProperty("spark.jobGroup.id"));
        heard.countDown();
      }
    };
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    jsc.sc().addSparkListener(listener);
    jsc.setJobGroup("my-notebook-cell", "the user's own group", false);
    try (Parallel p = Parallel.builder().backend(spark).nJobs(2).build()) {
      p.map(SparkVisibilityTest::score, List.of(1, 2, 3));
    } finally {
      heard.await(30, TimeUnit.SECONDS); // the listener bus delivers events asynchronously
      jsc.sc().removeSparkListener(listener);
    }
    assertThat(descriptions).anyMatch(d -> d.startsWith("joblib4j Parallel: SparkVisibilityTest.score (2 workers"));
    assertThat(groups).anyMatch(g -> g.startsWith("joblib4j-"));
    assertThat(jsc.getLocalProperty("spark.jobGroup.id")).isEqualTo("my-notebook-cell");
    jsc.clearJobGroup();
  }
}
