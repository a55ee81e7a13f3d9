package io.joblib4j.spark.internal;

import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Serial;
import java.io.StringWriter;
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
 * The Spark task of a call: one per worker slot, it connects back to the driver and runs batches
 * as the driver hands them out, until the call is over. A task's own exception is caught here and
 * reported as the task's outcome, so Spark never retries it; only when the JVM itself is lost does
 * Spark re-run this task, and the driver re-queues the batch it held.
 */
final class ExecutorWorker implements VoidFunction<Iterator<Integer>> {
  @Serial private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorWorker.class);
  private static final long PROGRESS_INTERVAL_NANOS = 50_000_000L;
  private static final int CONNECT_TIMEOUT_MILLIS = 30_000;

  private final String driverHost;
  private final int driverPort;
  private final String callId;
  private final byte[] token;
  private final byte[] initializer;
  private final String initializerDigest;
  private final long maxResultBytes;
  private final LongAccumulator tasksDone;

  ExecutorWorker(String driverHost, int driverPort, String callId, byte[] token, byte[] initializer,
      String initializerDigest, long maxResultBytes, LongAccumulator tasksDone) {
    this.driverHost = driverHost;
    this.driverPort = driverPort;
    this.callId = callId;
    this.token = token;
    this.initializer = initializer;
    this.initializerDigest = initializerDigest;
    this.maxResultBytes = maxResultBytes;
    this.tasksDone = tasksDone;
  }

  @Override
  public void call(Iterator<Integer> slot) throws Exception {
    TaskContext task = TaskContext.get();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
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
    try (socket) {
      socket.setTcpNoDelay(true);
      socket.setKeepAlive(true);
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
      out.writeByte(Frames.HELLO);
      Frames.writeText(out, callId);
      Frames.writeBytes(out, token);
      Frames.writeText(out, worker);
      out.writeByte(Frames.READY);
      out.flush();
      serve(task, loader, worker, in, out);
    } catch (IOException e) {
      if (task != null && task.isInterrupted()) {
        return; // the call was cancelled: the driver closed the connection and Spark kills this task
      }
      // the driver went away or dropped this worker (it re-queues what the worker held)
      LOG.info("joblib4j: {} lost its connection to the driver of {}: {}", worker, callId, e.toString());
    }
  }

  private void serve(TaskContext task, ClassLoader loader, String worker, DataInputStream in,
      DataOutputStream out) throws IOException {
    while (true) {
      byte kind = in.readByte();
      if (kind == Frames.EXIT) {
        return;
      }
      if (kind != Frames.BATCH) {
        throw new IOException("unexpected message " + kind + " from the driver");
      }
      int seq = in.readInt();
      int length = in.readInt();
      Batch batch;
      try (InputStream payload = Frames.slice(in, length)) {
        batch = (Batch) JavaSerialization.deserialize(payload, loader);
      } catch (ClassNotFoundException | RuntimeException | java.io.ObjectStreamException e) {
        broken(out, seq, "the batch could not be deserialized on " + worker + ": " + e
            + ". Are the application's classes shipped to the executors (--jars, --packages,"
            + " spark.jars)?", e);
        continue;
      }
      try {
        runInitializer(loader);
      } catch (Throwable t) {
        broken(out, seq, "the worker initializer failed on " + worker + ": " + t, t);
        continue;
      }
      out.writeByte(Frames.STARTED);
      out.writeInt(seq);
      out.flush();
      LOG.debug("joblib4j: {} on {}", batch.description(), worker);
      long[] lastReport = {System.nanoTime()};
      BatchOutcome outcome;
      try {
        outcome = batch.run(worker, done -> {
        long now = System.nanoTime();
        if (now - lastReport[0] >= PROGRESS_INTERVAL_NANOS) {
          lastReport[0] = now;
          try {
            out.writeByte(Frames.PROGRESS);
            out.writeInt(seq);
            out.writeInt(done);
            out.flush();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        });
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause(); // the connection broke while reporting progress
      }
      report(out, seq, worker, outcome);
      if (tasksDone != null) {
        tasksDone.add(outcome.succeeded() ? batch.size() : outcome.failedTask());
      }
      if (task != null && task.isInterrupted()) {
        return;
      }
    }
  }

  private void runInitializer(ClassLoader loader) throws Exception {
    if (initializer == null) {
      return;
    }
    ExecutorInitializers.ensure(initializerDigest, new Action() {
      @Override
      public void invoke() throws Exception {
        ((Action) JavaSerialization.deserialize(initializer, loader)).invoke();
      }
    });
  }

  private void report(DataOutputStream out, int seq, String worker, BatchOutcome outcome) throws IOException {
    if (!outcome.succeeded()) {
      Throwable f = outcome.failure();
      byte[] bytes;
      try {
        bytes = JavaSerialization.serialize(f);
      } catch (IOException | RuntimeException e) {
        bytes = new byte[0]; // the driver rebuilds it from the text below
      }
      out.writeByte(Frames.TASK_FAILED);
      out.writeInt(seq);
      out.writeInt(outcome.failedTask());
      Frames.writeBytes(out, bytes);
      Frames.writeText(out, f.getClass().getName());
      Frames.writeText(out, f.getMessage());
      Frames.writeText(out, stackText(f));
      out.flush();
      return;
    }
    byte[] bytes;
    try {
      bytes = JavaSerialization.serialize(outcome);
    } catch (IOException | RuntimeException e) {
      broken(out, seq, "a result of the batch could not be serialized on " + worker + " to send it to"
          + " the driver: " + e + ". Results must be Serializable.", e);
      return;
    }
    if (maxResultBytes > 0 && bytes.length > maxResultBytes) {
      broken(out, seq, "the results of one batch are " + bytes.length + " bytes serialized, more than"
          + " spark.driver.maxResultSize (" + maxResultBytes + " bytes) allows; the call stopped before"
          + " the driver ran out of memory. Return smaller results (write large ones to storage and"
          + " return their path), or raise spark.driver.maxResultSize (or " + SparkJoblibConf.MAX_RESULT_SIZE
          + " for joblib4j alone).", null);
      return;
    }
    out.writeByte(Frames.OUTCOME);
    out.writeInt(seq);
    Frames.writeBytes(out, bytes);
    out.flush();
  }

  private static void broken(DataOutputStream out, int seq, String why, Throwable cause) throws IOException {
    byte[] bytes = new byte[0];
    if (cause != null) {
      try {
        bytes = JavaSerialization.serialize(cause);
      } catch (IOException | RuntimeException ignored) {
        // the description says enough
      }
    }
    out.writeByte(Frames.BROKEN);
    out.writeInt(seq);
    Frames.writeText(out, why);
    Frames.writeBytes(out, bytes);
    out.flush();
  }

  static String stackText(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
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
