package io.joblib4j.spark.internal;

import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.worker.Hello;
import org.apache.spark.SparkException;

/**
 * Every failure the driver itself raises for a call, built in one place, where the diagnoses of
 * why executors cannot serve hook in: their joblib4j is missing ({@link MissingExecutorJar}) or of
 * another version. What a worker reports about a batch — a task's exception,
 * a failing initializer, what cannot be serialized — is turned into the caller's error by the
 * shared {@link io.joblib4j.spi.worker.BatchCodec}, as on every backend with workers in other JVMs.
 */
final class DriverFailures {
  private DriverFailures() {}

  /**
   * The Spark job that runs the call's workers ended while batches were unfinished: its tasks
   * failed (in Spark, before or outside a batch), or every worker left.
   *
   * @param cause why the job ended, or null if it ended normally
   * @param refusal why the driver refused the call's workers, or null
   */
  static SparkException workerJobEnded(CallSpec spec, Throwable cause, String refusal) {
    String why = refusal != null ? ": " + refusal
        : cause != null ? ": " + cause
        : " (every worker left)";
    SparkException failure = new SparkException("joblib4j: the Spark job running the workers of "
        + spec.callId() + " (" + spec.description() + ") ended before its batches did" + why, cause);
    return MissingExecutorJar.explain(cause, failure); // executors that lack joblib4j's jars
  }

  /** A worker that speaks another version of the protocol: the executors have another joblib4j. */
  static String incompatibleWorker(Hello hello) {
    return "an executor runs joblib4j protocol version " + hello.version() + ", the driver version "
        + Hello.VERSION + ": the executors load another joblib4j than the driver. Ship the driver's"
        + " joblib4j jars to the executors (--jars or spark.jars) and remove any other copy from their"
        + " class path";
  }
}
