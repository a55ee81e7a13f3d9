package io.joblib4j.spark.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The Spark task of one batch on the job path: its partition holds the frames the driver would
 * have sent a worker (the batch, then EXIT); it runs them through the same {@link
 * io.joblib4j.spi.worker.WorkerLoop} as a connected worker, from memory, and returns the frames
 * the loop wrote — started, progress, the outcome or the failure report — as the task's result,
 * which Spark carries back to the driver.
 */
final class JobPathTask implements PartitionJobs.PartitionFunction<byte[], byte[]> {
  @Serial private static final long serialVersionUID = 1L;
  /** What one Spark task result can carry (a byte array, serialized once more), with room for the frames. */
  static final long MAX_REPLY_BYTES = Integer.MAX_VALUE - (64L << 20);
  private static final byte[] NO_TOKEN = new byte[0];

  private final String callId;
  private final long maxResultBytes;
  private final LongAccumulator tasksDone;

  /** @param maxResultBytes the call's limit (0: none); the job path caps it at {@link #MAX_REPLY_BYTES} */
  JobPathTask(String callId, long maxResultBytes, LongAccumulator tasksDone) {
    this.callId = callId;
    this.maxResultBytes = maxResultBytes <= 0 ? MAX_REPLY_BYTES : Math.min(maxResultBytes, MAX_REPLY_BYTES);
    this.tasksDone = tasksDone;
  }

  @Override
  public byte[] apply(Iterator<byte[]> partition) {
    byte[] request = partition.next();
    ByteArrayOutputStream reply = new ByteArrayOutputStream(256);
    try {
      ExecutorLoops.loop(ExecutorLoops.workerName(), maxResultBytes, ExecutorLoops.tooLargeAdvice("; on the"
              + " job path (" + SparkJoblibKeys.key(SparkJoblibKeys.CHANNEL) + ") one batch's results are one"
              + " Spark task result, which cannot exceed 2 GiB"), tasksDone, TaskContext.get())
          // Spark's own channel carries the task and its result: the loop proves nothing to anyone
          .serve(new ByteArrayInputStream(request), reply, NO_TOKEN, callId);
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: the job path's frames for " + callId + " are damaged", e);
    }
    return reply.toByteArray();
  }
}
