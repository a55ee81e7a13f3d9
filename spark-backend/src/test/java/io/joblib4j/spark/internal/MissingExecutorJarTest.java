package io.joblib4j.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

class MissingExecutorJarTest {
  private static final SparkException GENERIC = new SparkException("the Spark job ended before its batches did");

  /** What DAGScheduler reports when a task cannot be deserialized on the executors. */
  private static SparkException stageFailure(String executorError, Throwable cause) {
    return new SparkException("Job aborted due to stage failure: Task 1 in stage 0.0 failed 4 times, most"
        + " recent failure: Lost task 1.3 in stage 0.0 (TID 4) (127.0.0.1 executor 1): " + executorError, cause);
  }

  @Test
  void namesTheBundleAndHowToShipItWhenExecutorsLackJoblib4jKeepingTheJobFailureAsCause() {
    SparkException job = stageFailure("java.lang.ClassNotFoundException: io.joblib4j.spark.internal.ExecutorWorker",
        new ClassNotFoundException("io.joblib4j.spark.internal.ExecutorWorker"));
    SparkException explained = MissingExecutorJar.explain(job, GENERIC);
    assertThat(explained).isNotSameAs(GENERIC).hasCause(job);
    assertThat(explained.getMessage())
        .contains("io.joblib4j.spark.internal.ExecutorWorker is missing")
        // the bundle of the line this jar is built for: on the Spark 3.5 lines it named Spark 4's
        .contains("spark-submit --jars joblib4j-spark-" + BuiltForSpark.LINE + "-bundle_" + BuiltForScala.BINARY + ".jar")
        .contains("spark.jars=")
        .contains("--driver-class-path");
  }

  @Test
  void recognizesAMissingClassFromSparksTextAloneAndFromNoClassDefFoundError() {
    assertThat(MissingExecutorJar.missingClass(stageFailure(
        "java.lang.ClassNotFoundException (io.joblib4j.spark.internal.ExecutorWorker) [duplicate 3]", null)))
        .isEqualTo("io.joblib4j.spark.internal.ExecutorWorker");
    assertThat(MissingExecutorJar.missingClass(new SparkException("task failed",
        new NoClassDefFoundError("io/joblib4j/spi/BatchOutcome"))))
        .isEqualTo("io.joblib4j.spi.BatchOutcome");
    // the libraries the bundle carries, when shipped as separate jars and one is forgotten
    assertThat(MissingExecutorJar.missingClass(stageFailure(
        "java.lang.NoClassDefFoundError: com/esotericsoftware/kryo/kryo5/Kryo", null)))
        .isEqualTo("com.esotericsoftware.kryo.kryo5.Kryo");
  }

  @Test
  void leavesOtherFailuresAsTheyWere() {
    SparkException userClass = stageFailure("java.lang.ClassNotFoundException: com.example.Model",
        new ClassNotFoundException("com.example.Model"));
    assertThat(MissingExecutorJar.explain(userClass, GENERIC)).isSameAs(GENERIC);
    assertThat(MissingExecutorJar.explain(new SparkException("Job 3 cancelled part of cancelled job group"), GENERIC))
        .isSameAs(GENERIC);
    assertThat(MissingExecutorJar.explain(new InterruptedException(), GENERIC)).isSameAs(GENERIC);
    assertThat(MissingExecutorJar.explain(null, GENERIC)).isSameAs(GENERIC);
  }
}
