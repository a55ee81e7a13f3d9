package io.joblib4j.spark.connect.internal;

import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;

/**
 * What runs on an executor: each row of the partition holds the frames the client would have sent
 * a worker (one batch, then EXIT); the same {@link WorkerLoop} a connected worker runs serves them
 * from memory, and the frames it writes (hello, started, progress, the outcome or the failure
 * report) are the row returned. Rows are served one at a time as Spark pulls them, so a partition
 * of several batches holds one reply at a time.
 *
 * <p>Only {@code spark-common-utils} ({@link MapPartitionsFunction}) and engine-api are named, so
 * the class loads on any executor that has joblib4j's jars as session artifacts.
 */
public final class ConnectTask implements MapPartitionsFunction<byte[], byte[]> {
  @Serial private static final long serialVersionUID = 1L;
  /** A gRPC message of the Connect client carries 128 MiB by default; room is kept for the frames. */
  public static final long MAX_REPLY_BYTES = (128L << 20) - (1L << 20);
  /** Executors may hold other versions of the user's classes than the client: descriptors are checked. */
  public static final WireFormat WIRE_FORMAT = WireFormat.PORTABLE;
  private static final byte[] NO_TOKEN = new byte[0];

  private final String callId;
  private final long maxResultBytes;

  /**
   * @param callId the call's id, the scope the loop serves
   * @param maxResultBytes what one batch's results may take (0: {@link #MAX_REPLY_BYTES})
   */
  public ConnectTask(String callId, long maxResultBytes) {
    this.callId = callId;
    this.maxResultBytes = maxResultBytes <= 0 ? MAX_REPLY_BYTES : Math.min(maxResultBytes, MAX_REPLY_BYTES);
  }

  @Override
  public Iterator<byte[]> call(Iterator<byte[]> requests) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !Thread.currentThread().isInterrupted() && requests.hasNext();
      }

      @Override
      public byte[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return serve(requests.next());
      }
    };
  }

  /** Runs one batch's frames and returns the worker's. */
  byte[] serve(byte[] request) {
    ByteArrayOutputStream reply = new ByteArrayOutputStream(256);
    try {
      WorkerLoop.builder(workerName())
          .wireFormat(WIRE_FORMAT)
          .classLoader(Thread.currentThread().getContextClassLoader())
          .maxResultBytes(maxResultBytes, "; the call stopped before the client ran out of memory. Under Spark"
              + " Connect one batch's results are one row of the result stream, at most " + maxResultBytes
              + " bytes (option maxResultSize, which cannot exceed the client's 128 MiB gRPC message). Return"
              + " smaller results (write large ones to storage and return their path), or use smaller batches")
          .stopAfterBatchIf(() -> Thread.currentThread().isInterrupted())
          .build()
          // the plan carries the batch and the result stream its reply: the loop proves nothing to anyone
          .serve(new ByteArrayInputStream(request), reply, NO_TOKEN, callId);
    } catch (IOException e) {
      throw new UncheckedIOException("joblib4j: the frames of " + callId + " are damaged", e);
    }
    return reply.toByteArray();
  }

  /** This executor JVM, for messages: the client cannot see Spark's executor ids. */
  static String workerName() {
    String host = "?";
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException ignored) {
      // the name is for messages only
    }
    return "Spark Connect executor on " + host + " (pid " + ProcessHandle.current().pid() + ")";
  }
}
