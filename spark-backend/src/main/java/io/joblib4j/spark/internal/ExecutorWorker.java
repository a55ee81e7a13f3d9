package io.joblib4j.spark.internal;

import io.joblib4j.spi.worker.WorkerLoop;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serial;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark task of a call on the direct channel: one per worker slot, it connects back to the
 * driver ({@link ChannelHandshake}, then sealed with the call's key when Spark encrypts its own
 * traffic) and serves batches in a {@link WorkerLoop} — the same loop as a child JVM of the
 * processes backend — until the call is over. A task's own exception is reported as the batch's
 * outcome, so Spark never retries it; only when the JVM itself is lost does Spark re-run this
 * task, and the driver re-queues the batch it held.
 *
 * <p>A worker that cannot reach the driver does not fail its task (Spark would retry it, each time
 * after another connect timeout): it returns why ({@link WorkerExit}), as soon as the connect
 * timeout allows, and the driver falls back to Spark jobs or fails the call, naming the settings.
 */
final class ExecutorWorker implements PartitionJobs.PartitionFunction<Integer, String> {
  @Serial private static final long serialVersionUID = 3L;
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorWorker.class);

  private final String driverHost;
  private final int driverPort;
  private final int connectTimeoutMillis;
  private final String callId;
  private final byte[] token;
  /** The call's key when the channel is sealed, else null. */
  private final byte[] key;
  private final long maxResultBytes;
  private final LongAccumulator tasksDone;

  ExecutorWorker(String driverHost, int driverPort, long connectTimeoutMillis, String callId, byte[] token,
      byte[] key, long maxResultBytes, LongAccumulator tasksDone) {
    this.driverHost = driverHost;
    this.driverPort = driverPort;
    this.connectTimeoutMillis = (int) connectTimeoutMillis;
    this.callId = callId;
    this.token = token;
    this.key = key;
    this.maxResultBytes = maxResultBytes;
    this.tasksDone = tasksDone;
  }

  @Override
  public String apply(Iterator<Integer> slot) {
    TaskContext task = TaskContext.get();
    String worker = ExecutorLoops.workerName();
    String driver = driverHost + ":" + driverPort;
    try (Socket socket = new Socket()) {
      try {
        socket.connect(new InetSocketAddress(driverHost, driverPort), connectTimeoutMillis);
      } catch (IOException e) {
        return unreachable(worker + " cannot open a connection to the driver at " + driver + " (" + e + ")");
      }
      byte[] nonce = ChannelCrypto.random(ChannelCrypto.NONCE_BYTES);
      byte[] driverNonce;
      try {
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        socket.setSoTimeout(connectTimeoutMillis);
        ChannelHandshake.open(socket.getOutputStream(), key != null, callId, nonce);
        driverNonce = ChannelHandshake.readAnswer(new DataInputStream(socket.getInputStream()));
        socket.setSoTimeout(0);
      } catch (SocketTimeoutException | EOFException e) {
        return unreachable(worker + " connected to " + driver + " but no joblib4j driver answered there within "
            + connectTimeoutMillis + " ms (" + e + "): a NAT, proxy or another service is in the way");
      } catch (IOException e) {
        return new WorkerExit(WorkerExit.Kind.REFUSED, worker + ": " + e.getMessage()).encode();
      }
      if (driverNonce == null) {
        return WorkerExit.LATE.encode(); // started after the call was over
      }
      serve(socket, nonce, driverNonce, worker, task);
      return WorkerExit.SERVED.encode();
    } catch (IOException e) {
      return WorkerExit.SERVED.encode(); // closing failed: nothing left to do
    }
  }

  private void serve(Socket socket, byte[] nonce, byte[] driverNonce, String worker, TaskContext task) {
    WorkerLoop loop = ExecutorLoops.loop(worker, maxResultBytes, ExecutorLoops.tooLargeAdvice(""), tasksDone, task);
    try {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      if (key != null) {
        ChannelCrypto crypto = ChannelCrypto.forConnection(key, callId, nonce, driverNonce);
        in = crypto.workerInput(in);
        out = crypto.workerOutput(out);
      }
      loop.serve(in, out, token, callId);
    } catch (IOException e) {
      if (task != null && task.isInterrupted()) {
        return; // the call was cancelled: the driver closed the connection and Spark kills this task
      }
      // the driver went away or dropped this worker (it re-queues what the worker held)
      LOG.info("joblib4j: {} lost its connection to the driver of {}: {}", worker, callId, e.toString());
    }
  }

  private String unreachable(String why) {
    LOG.warn("joblib4j: {}", why);
    return new WorkerExit(WorkerExit.Kind.UNREACHABLE, why).encode();
  }
}
