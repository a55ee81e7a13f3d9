package io.joblib4j.spark.internal;

import io.joblib4j.spi.Batch;
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

  /** A worker that connected without the channel handshake: a joblib4j from before it. */
  static String legacyWorker() {
    return "an executor runs a joblib4j older than the driver's (it does not speak the driver channel's"
        + " handshake): the executors load another joblib4j than the driver. Ship the driver's joblib4j"
        + " jars to the executors (--jars or spark.jars) and remove any other copy from their class path";
  }

  /** What to set when executors cannot reach the driver's channel. */
  static String reachAdvice() {
    return "Executors must be able to open a TCP connection to the driver: set "
        + SparkJoblibKeys.key(SparkJoblibKeys.DRIVER_HOST) + " to an address of the driver they can reach and "
        + SparkJoblibKeys.key(SparkJoblibKeys.DRIVER_PORT) + " to a port or range your firewall lets through"
        + " (e.g. 40000-40100); or set " + SparkJoblibKeys.key(SparkJoblibKeys.CHANNEL) + "=job (or auto) to"
        + " run batches as Spark jobs, through Spark's own connections (a Spark job per batch: slower for"
        + " tiny tasks)";
  }

  /** Executors cannot reach the driver and the call may not fall back ({@code channel=driver}). */
  static SparkException driverUnreachable(CallSpec spec, String why) {
    return new SparkException("joblib4j: the workers of " + spec.callId() + " (" + spec.description()
        + ") cannot reach the driver: " + why + ". " + reachAdvice());
  }

  /** The driver refused the call's workers (another joblib4j, other encryption settings). */
  static SparkException workerRefused(CallSpec spec, String why) {
    return new SparkException("joblib4j: the driver refused the workers of " + spec.callId() + " ("
        + spec.description() + "): " + why);
  }

  /** The Spark job of one batch on the job path failed (Spark's task retries used up, a limit of Spark's). */
  static SparkException batchJobFailed(CallSpec spec, Batch batch, Throwable cause) {
    SparkException failure = new SparkException("joblib4j: the Spark job running " + batch.description()
        + " of " + spec.callId() + " (" + spec.description() + ") failed: " + cause, cause);
    return MissingExecutorJar.explain(cause, failure);
  }

  /** The frames a batch's task sent back on the job path cannot be read: a joblib4j bug, or another joblib4j. */
  static SparkException jobPathReplyUnreadable(CallSpec spec, Batch batch, Throwable cause) {
    return new SparkException("joblib4j: the result of " + batch.description() + " of " + spec.callId()
        + " could not be read (" + cause + "); do the executors run the driver's joblib4j?", cause);
  }
}
