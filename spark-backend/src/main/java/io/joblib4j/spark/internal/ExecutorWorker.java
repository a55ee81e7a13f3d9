package io.joblib4j.spark.internal;

import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.IOException;
import java.io.Serial;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Iterator;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.VoidFunction;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark task of a call: one per worker slot, it connects back to the driver and serves batches
 * in a {@link WorkerLoop} — the same loop as a child JVM of the processes backend — until the call
 * is over. A task's own exception is reported as the batch's outcome, so Spark never retries it;
 * only when the JVM itself is lost does Spark re-run this task, and the driver re-queues the batch
 * it held.
 */
final class ExecutorWorker implements VoidFunction<Iterator<Integer>> {
  @Serial private static final long serialVersionUID = 2L;
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorWorker.class);
  private static final int CONNECT_TIMEOUT_MILLIS = 30_000;
  /** Executors may hold other versions of the user's classes than the driver: descriptors are checked. */
  static final WireFormat WIRE_FORMAT = WireFormat.PORTABLE;

  private final String driverHost;
  private final int driverPort;
  private final String callId;
  private final byte[] token;
  private final long maxResultBytes;
  private final LongAccumulator tasksDone;

  ExecutorWorker(String driverHost, int driverPort, String callId, byte[] token, long maxResultBytes,
      LongAccumulator tasksDone) {
    this.driverHost = driverHost;
    this.driverPort = driverPort;
    this.callId = callId;
    this.token = token;
    this.maxResultBytes = maxResultBytes;
    this.tasksDone = tasksDone;
  }

  @Override
  public void call(Iterator<Integer> slot) throws Exception {
    TaskContext task = TaskContext.get();
    String worker = workerName();
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(driverHost, driverPort), CONNECT_TIMEOUT_MILLIS);
    } catch (IOException e) {
      socket.close();
      throw new IOException("joblib4j: " + worker + " cannot reach the driver of " + callId + " at "
          + driverHost + ":" + driverPort + " (" + e + "). Executors must be able to open a connection"
          + " to the driver: set " + SparkJoblibConf.DRIVER_HOST + " to an address they can reach,"
          + " or " + SparkJoblibConf.DRIVER_PORT + " to a port your firewall allows", e);
    }
    WorkerLoop loop = WorkerLoop.builder(worker)
        .wireFormat(WIRE_FORMAT)
        .maxResultBytes(maxResultBytes, "; the call stopped before the driver ran out of memory. Return"
            + " smaller results (write large ones to storage and return their path), or raise"
            + " spark.driver.maxResultSize (or " + SparkJoblibConf.MAX_RESULT_SIZE + " for joblib4j alone)")
        .onBatchDone(done -> {
          if (tasksDone != null) {
            tasksDone.add(done);
          }
        })
        .stopAfterBatchIf(() -> task != null && task.isInterrupted())
        .build();
    try (socket) {
      socket.setKeepAlive(true);
      loop.serve(socket, token, callId);
    } catch (IOException e) {
      if (task != null && task.isInterrupted()) {
        return; // the call was cancelled: the driver closed the connection and Spark kills this task
      }
      // the driver went away or dropped this worker (it re-queues what the worker held)
      LOG.info("joblib4j: {} lost its connection to the driver of {}: {}", worker, callId, e.toString());
    }
  }

  private static String workerName() {
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
