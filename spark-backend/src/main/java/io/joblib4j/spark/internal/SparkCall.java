package io.joblib4j.spark.internal;

import io.joblib4j.spark.RemoteTaskException;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.CallSpec;
import java.io.DataInputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code Parallel} call on Spark: a single Spark job whose {@code nJobs} tasks are workers that
 * connect back to the driver and pull batches one at a time, for as long as the call has work.
 *
 * <p>Why not one Spark job per batch (joblib-spark's way)? A Spark job costs 25-95 ms to schedule
 * on local[2] (measured, see BENCHMARKS.md), and joblib's adaptive batching needs about a dozen
 * round trips to grow batches for tiny tasks: per-batch jobs would cost seconds where the work
 * costs milliseconds. Pulled batches cost one socket round trip each, so batching adapts as fast
 * as on threads, results stream back as each batch ends (no collect, no driver-side result
 * limit), and the core's dispatch rule is kept exactly.
 *
 * <p>Failures: a task's exception is caught on the executor and comes back as the batch's outcome
 * (Spark never retries it). If an executor is lost, its connection drops and the batch it held
 * goes back to the front of the queue; Spark re-runs the lost worker task elsewhere. A batch's
 * outcome is accepted once, so nothing is lost or delivered twice.
 */
final class SparkCall implements BackendCall {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCall.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final JavaSparkContext jsc;
  private final CallSpec spec;
  private final DriverChannel channel;
  private final SparkJoblibConf conf;
  private final ArgumentSharing sharing;
  private final ClassLoader loader;
  private final byte[] token = new byte[32];
  private final String jobGroup;
  private final Runnable onClose;

  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final ArrayDeque<WorkerConnection> idle = new ArrayDeque<>();
  private final Map<WorkerConnection, Pending> leased = new IdentityHashMap<>();
  private final Map<Integer, Pending> bySeq = new HashMap<>();
  private final List<WorkerConnection> connections = new ArrayList<>();
  private int nextSeq;
  private int workersSeen;
  private boolean cancelled;
  private boolean closed;
  private JavaFutureAction<Void> job;

  /** A batch waiting for, or held by, a worker. */
  private static final class Pending {
    final int seq;
    final Batch batch;
    final BatchListener listener;
    final byte[] payload;
    int attempts;

    Pending(int seq, Batch batch, BatchListener listener, byte[] payload) {
      this.seq = seq;
      this.batch = batch;
      this.listener = listener;
      this.payload = payload;
    }
  }

  SparkCall(JavaSparkContext jsc, CallSpec spec, DriverChannel channel, SparkJoblibConf conf,
      ArgumentSharing sharing, Runnable onClose) {
    this.jsc = jsc;
    this.onClose = onClose;
    this.spec = spec;
    this.channel = channel;
    this.conf = conf;
    this.sharing = sharing;
    ClassLoader tccl = Thread.currentThread().getContextClassLoader();
    this.loader = tccl != null ? tccl : SparkCall.class.getClassLoader();
    RANDOM.nextBytes(token);
    this.jobGroup = spec.callId();
  }

  String callId() {
    return spec.callId();
  }

  byte[] token() {
    return token;
  }

  /** Launches the worker tasks: one Spark job with a partition per worker. */
  void start(ExecutorWorker worker, String description) {
    channel.register(this);
    JobProperties saved = JobProperties.set(jsc, jobGroup, description);
    try {
      List<Integer> slots = IntStream.range(0, spec.nJobs()).boxed().collect(Collectors.toList());
      job = jsc.parallelize(slots, spec.nJobs()).foreachPartitionAsync(worker);
    } finally {
      saved.restore();
    }
    Thread watcher = new Thread(this::watchJob, "joblib4j-spark-job-" + spec.callId());
    watcher.setDaemon(true);
    watcher.start();
  }

  // ---- from the core -----------------------------------------------------------------------

  @Override
  public void submit(Batch batch, BatchListener listener) {
    byte[] payload;
    try {
      payload = JavaSerialization.serialize(batch, sharing.replacementsFor(batch));
    } catch (IOException e) {
      throw new IllegalArgumentException(batch.description() + " cannot be sent to Spark executors: "
          + e + ". Task functions, their arguments and every value a lambda captures must be"
          + " Serializable (a lambda in an instance method captures 'this')", e);
    }
    WorkerConnection free;
    Pending p;
    synchronized (this) {
      if (cancelled || closed) {
        return;
      }
      p = new Pending(nextSeq++, batch, listener, payload);
      bySeq.put(p.seq, p);
      free = idle.poll();
      if (free == null) {
        queue.add(p);
        return;
      }
      leased.put(free, p);
    }
    send(free, p);
  }

  @Override
  public void cancel() {
    List<WorkerConnection> all;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      queue.clear();
      all = new ArrayList<>(connections);
    }
    // interrupts the task threads (interruptOnCancel) and drops worker tasks not started yet;
    // closing the sockets frees workers blocked waiting for a batch
    jsc.sc().cancelJobGroup(jobGroup);
    all.forEach(WorkerConnection::close);
  }

  @Override
  public void close() {
    List<WorkerConnection> all;
    boolean someNeverStarted;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      queue.clear();
      all = new ArrayList<>(connections);
      someNeverStarted = workersSeen < spec.nJobs();
    }
    channel.unregister(this);
    all.forEach(WorkerConnection::sendExit);
    if (!cancelled) {
      if (someNeverStarted) {
        // more workers than free slots: the rest would only start to find the call over
        jsc.sc().cancelJobGroup(jobGroup);
      } else {
        // workers return at once on EXIT; a task Spark is still re-running for a lost executor
        // would hold a slot the next call needs, so what is left after a moment is cancelled
        CompletableFuture.delayedExecutor(2, TimeUnit.SECONDS).execute(() -> {
          if (job != null && !job.isDone()) {
            jsc.sc().cancelJobGroup(jobGroup);
          }
        });
      }
    }
    sharing.release();
    onClose.run();
  }

  // ---- from the workers' connections ---------------------------------------------------------

  /** Runs in the connection's own thread until the worker leaves. */
  void serve(WorkerConnection conn) {
    synchronized (this) {
      if (cancelled || closed) {
        conn.close();
        return;
      }
      connections.add(conn);
      workersSeen++;
    }
    Thread.currentThread().setContextClassLoader(loader);
    try {
      DataInputStream in = conn.in;
      while (true) {
        byte kind = in.readByte();
        switch (kind) {
          case Frames.READY -> workerFree(conn);
          case Frames.STARTED -> {
            Pending p = live(in.readInt());
            if (p != null) {
              p.listener.started();
            }
          }
          case Frames.PROGRESS -> {
            Pending p = live(in.readInt());
            int done = in.readInt();
            if (p != null) {
              p.listener.taskDone(done);
            }
          }
          case Frames.OUTCOME -> outcome(conn, in);
          case Frames.TASK_FAILED -> taskFailed(conn, in);
          case Frames.BROKEN -> broken(conn, in);
          default -> throw new IOException("unexpected message " + kind + " from " + conn);
        }
      }
    } catch (IOException e) {
      lost(conn, e);
    }
  }

  private void outcome(WorkerConnection conn, DataInputStream in) throws IOException {
    int seq = in.readInt();
    long limit = conf.maxResultBytes() > 0 ? conf.maxResultBytes() : Integer.MAX_VALUE;
    byte[] bytes = Frames.readBytes(in, limit, "a batch result");
    Pending p = finish(conn, seq);
    if (p != null) {
      BatchOutcome outcome;
      try {
        outcome = (BatchOutcome) JavaSerialization.deserialize(bytes, loader);
      } catch (ClassNotFoundException | IOException | RuntimeException e) {
        p.listener.failed(new SparkException("the results of " + p.batch.description() + " from "
            + conn + " could not be deserialized on the driver: " + e
            + ". Result classes must be on the driver's class path too.", e));
        workerFree(conn);
        return;
      }
      p.listener.completed(outcome.ranOn(conn.worker));
    }
    workerFree(conn);
  }

  private void taskFailed(WorkerConnection conn, DataInputStream in) throws IOException {
    int seq = in.readInt();
    int failedTask = in.readInt();
    byte[] bytes = Frames.readBytes(in, Integer.MAX_VALUE, "an exception");
    String className = Frames.readText(in);
    String message = Frames.readText(in);
    String stack = Frames.readText(in);
    Pending p = finish(conn, seq);
    if (p != null) {
      Throwable failure = null;
      if (bytes.length > 0) {
        try {
          failure = (Throwable) JavaSerialization.deserialize(bytes, loader);
        } catch (ClassNotFoundException | IOException | RuntimeException | LinkageError e) {
          failure = null;
        }
      }
      if (failure == null) {
        failure = new RemoteTaskException(className, message.isEmpty() ? null : message, stack, conn.worker);
      }
      p.listener.completed(BatchOutcome.failure(failedTask, failure, conn.worker));
    }
    workerFree(conn);
  }

  private void broken(WorkerConnection conn, DataInputStream in) throws IOException {
    int seq = in.readInt();
    String why = Frames.readText(in);
    byte[] bytes = Frames.readBytes(in, Integer.MAX_VALUE, "an exception");
    Pending p = finish(conn, seq);
    if (p != null) {
      Throwable cause = null;
      if (bytes.length > 0) {
        try {
          cause = (Throwable) JavaSerialization.deserialize(bytes, loader);
        } catch (ClassNotFoundException | IOException | RuntimeException | LinkageError ignored) {
          // the description names the exception already
        }
      }
      p.listener.failed(new SparkException("joblib4j: " + why, cause));
    }
    workerFree(conn);
  }

  /** The batch {@code seq} is over on {@code conn}: its outcome counts only the first time. */
  private synchronized Pending finish(WorkerConnection conn, int seq) {
    Pending held = leased.get(conn);
    if (held != null && held.seq == seq) {
      leased.remove(conn);
    }
    Pending p = bySeq.remove(seq);
    return cancelled ? null : p;
  }

  private synchronized Pending live(int seq) {
    return cancelled ? null : bySeq.get(seq);
  }

  private void workerFree(WorkerConnection conn) {
    Pending next;
    synchronized (this) {
      if (cancelled || closed) {
        next = null;
      } else {
        next = queue.poll();
        if (next == null) {
          idle.add(conn);
          return;
        }
        leased.put(conn, next);
      }
    }
    if (next == null) {
      conn.sendExit();
      return;
    }
    send(conn, next);
  }

  private void send(WorkerConnection conn, Pending p) {
    try {
      conn.sendBatch(p.seq, p.payload);
      ChannelStats.batchSent(p.payload.length);
    } catch (IOException e) {
      conn.close();
      // the connection's reader sees the close and re-queues the batch
    }
  }

  /** The worker is gone: a batch it held goes back to the front of the queue for another worker. */
  private void lost(WorkerConnection conn, IOException why) {
    Pending orphan;
    WorkerConnection free = null;
    synchronized (this) {
      connections.remove(conn);
      idle.remove(conn);
      orphan = leased.remove(conn);
      if (orphan == null || cancelled || closed || !bySeq.containsKey(orphan.seq)) {
        return;
      }
      orphan.attempts++;
      free = idle.poll();
      if (free == null) {
        queue.addFirst(orphan);
      } else {
        leased.put(free, orphan);
      }
    }
    LOG.warn("joblib4j: lost {} while it ran {} ({}); the batch runs again on another worker",
        conn, orphan.batch.description(), why.toString());
    if (free != null) {
      send(free, orphan);
    }
    conn.close();
  }

  /** When the worker job ends before the call does, whatever is unfinished fails with its reason. */
  private void watchJob() {
    Throwable cause;
    try {
      job.get();
      cause = null;
    } catch (ExecutionException e) {
      cause = e.getCause() != null ? e.getCause() : e;
    } catch (InterruptedException | RuntimeException e) {
      cause = e;
    }
    List<Pending> unfinished;
    synchronized (this) {
      if (cancelled || closed) {
        return;
      }
      unfinished = new ArrayList<>(bySeq.values());
      bySeq.clear();
      queue.clear();
      cancelled = true; // nothing can run any more
    }
    if (unfinished.isEmpty()) {
      return;
    }
    SparkException failure = new SparkException("joblib4j: the Spark job running the workers of "
        + spec.callId() + " (" + spec.description() + ") ended before its batches did"
        + (cause != null ? ": " + cause : " (every worker left)"), cause);
    failure = MissingExecutorJar.explain(cause, failure);
    for (Pending p : unfinished) {
      p.listener.failed(failure);
    }
  }
}
