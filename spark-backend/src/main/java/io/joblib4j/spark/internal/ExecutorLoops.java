package io.joblib4j.spark.internal;

import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLoop;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The worker loop an executor runs for a call, the same on the direct channel ({@link
 * ExecutorWorker}) and on the job path ({@link JobPathTask}).
 */
final class ExecutorLoops {
  /** Executors may hold other versions of the user's classes than the driver: descriptors are checked. */
  static final WireFormat WIRE_FORMAT = WireFormat.PORTABLE;

  private ExecutorLoops() {}

  /**
   * A loop for {@code worker} that fails a batch whose results exceed {@code maxResultBytes} (0: no
   * limit) with {@code advice}, counts finished tasks in {@code tasksDone} (the Spark UI's
   * accumulator), and returns after a batch once {@code task} is interrupted (the call was cancelled).
   */
  static WorkerLoop loop(String worker, long maxResultBytes, String advice, LongAccumulator tasksDone,
      TaskContext task) {
    return WorkerLoop.builder(worker)
        .wireFormat(WIRE_FORMAT)
        .maxResultBytes(maxResultBytes, advice)
        .onBatchDone(done -> {
          if (tasksDone != null) {
            tasksDone.add(done);
          }
        })
        .stopAfterBatchIf(() -> task != null && task.isInterrupted())
        .build();
  }

  /** The advice of a batch whose results are too large, naming the settings. */
  static String tooLargeAdvice(String how) {
    return "; the call stopped before the driver ran out of memory. Return smaller results (write large"
        + " ones to storage and return their path), or raise spark.driver.maxResultSize (or "
        + SparkJoblibKeys.key(SparkJoblibKeys.MAX_RESULT_SIZE) + " for joblib4j alone)" + how;
  }

  /** This executor and JVM, for messages. */
  static String workerName() {
    String id = "?";
    String host = "?";
    try {
      SparkEnv env = SparkEnv.get();
      id = env.executorId();
      host = env.blockManager().blockManagerId().host();
    } catch (RuntimeException ignored) {
      // the name is for messages only
    }
    return "executor " + id + " on " + host + " (pid " + ProcessHandle.current().pid() + ")";
  }
}
