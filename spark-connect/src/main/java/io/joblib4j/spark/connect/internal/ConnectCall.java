package io.joblib4j.spark.connect.internal;

import io.joblib4j.JoblibException;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchSubmission;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;

/**
 * One {@code Parallel} call on Spark Connect: a batch is a row of a local relation (the frames a
 * worker would be sent: the batch, then EXIT) mapped by {@link ConnectTask} on an executor, whose
 * result row (the worker's frames) comes back through the Connect result stream and is read by the
 * same {@link WorkerLink} and {@link BatchCodec} as every backend with workers in other JVMs, so
 * errors are the same.
 *
 * <p>At most {@code nJobs} batches run at once, on threads of the backend's pool that wait for
 * their operations. Batches the core cuts together ({@link #submitAll}, one per slot) share one
 * operation, a row and a partition each; any other batch is an operation of its own. Every
 * operation carries the call's tag, so {@link #cancel} interrupts them all at once on the server
 * ({@code interruptTag}), which cancels their Spark jobs and interrupts their tasks. A batch counts
 * as started when its operation is sent (the client cannot see when Spark starts the task): the
 * task timeout includes the operation's overhead. Progress within a batch arrives with its result.
 */
final class ConnectCall implements BackendCall {
  private final SparkSession session;
  private final CallSpec spec;
  private final BatchCodec codec;
  private final byte[] initializer;
  private final ConnectTask task;
  /** Gives the session the code of the classes the last encoded batch noted (blocks until it is there). */
  private final Runnable shipCode;
  private final Executor pool;
  private final Runnable onClose;
  private final RecentOperations recent;
  private final String tag;

  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final Set<Pending> inFlight = new HashSet<>();
  private long nextSeq;
  private int running;
  private boolean cancelled;
  private boolean closed;

  private record Pending(long seq, Batch batch, BatchListener listener, byte[] request) {}

  ConnectCall(SparkSession session, CallSpec spec, BatchCodec codec, byte[] initializer, ConnectTask task,
      Runnable shipCode, Executor pool, RecentOperations recent, Runnable onClose) {
    this.session = session;
    this.spec = spec;
    this.codec = codec;
    this.initializer = initializer;
    this.task = task;
    this.shipCode = shipCode;
    this.pool = pool;
    this.onClose = onClose;
    this.recent = recent;
    this.tag = tagOf(spec.callId());
  }

  /** A Connect operation tag for the call: no commas, not empty. */
  static String tagOf(String callId) {
    return "joblib4j-" + callId.replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    submitAll(List.of(new BatchSubmission(batch, listener))); // one batch: an operation of its own
  }

  /**
   * Batches cut together (one per slot) go in one operation while slots are free, when the
   * function's last operation was short ({@link RecentOperations}): a local relation of one row per
   * batch, which the server cuts into as many partitions (up to its parallelism), so they still run
   * side by side, for one operation's cost instead of one per batch.
   */
  @Override
  public void submitAll(List<BatchSubmission> batches) {
    List<Pending> ready = new ArrayList<>(batches.size());
    for (BatchSubmission b : batches) {
      Pending p = encode(b.batch(), b.listener());
      if (p != null) {
        ready.add(p);
      }
    }
    synchronized (this) {
      if (cancelled || closed) {
        return;
      }
      inFlight.addAll(ready);
      int together = recent.mayShare(spec.description()) ? Math.min(spec.nJobs() - running, ready.size()) : 0;
      if (together > 1) {
        List<Pending> group = List.copyOf(ready.subList(0, together));
        running += together;
        pool.execute(() -> run(group));
        ready = ready.subList(together, ready.size());
      }
      queue.addAll(ready); // the rest, one operation each as slots free
      launchWhatFits();
    }
  }

  /** The batch's frames, with the code it needs given to the session; null if it failed (and was reported). */
  private Pending encode(Batch batch, BatchListener listener) {
    byte[] payload;
    try {
      payload = codec.encodeBatch(batch);
    } catch (TaskSerializationException e) {
      listener.failed(e);
      return null;
    }
    try {
      shipCode.run();
    } catch (RuntimeException e) {
      listener.failed(new JoblibException("joblib4j: the code of " + batch.description() + " of " + spec.callId()
          + " could not be given to the Spark Connect server: " + e.getMessage() + ". Add the application's jars"
          + " with the backend option jars, or session.addArtifact", e));
      return null;
    }
    synchronized (this) {
      long seq = nextSeq++;
      return new Pending(seq, batch, listener, WorkerLink.batchThenExit(seq, initializer, payload));
    }
  }

  /** Called holding the lock. */
  private void launchWhatFits() {
    while (running < spec.nJobs() && !queue.isEmpty()) {
      List<Pending> one = List.of(queue.poll());
      running++;
      pool.execute(() -> run(one));
    }
  }

  /** Runs the operation of {@code group}'s batches on a pool thread and reports each. */
  private void run(List<Pending> group) {
    try {
      synchronized (this) {
        if (cancelled || closed) {
          return;
        }
      }
      group.forEach(p -> p.listener.started());
      List<byte[]> rows;
      long sent = System.nanoTime();
      session.addTag(tag);
      try {
        rows = session.createDataset(group.stream().map(Pending::request).toList(), Encoders.BINARY())
            .mapPartitions(task, Encoders.BINARY())
            .collectAsList();
      } finally {
        session.removeTag(tag);
      }
      recent.took(spec.description(), System.nanoTime() - sent);
      if (rows.size() != group.size()) {
        throw new IOException(group.size() + " replies expected, " + rows.size() + " came");
      }
      // rows come back in the relation's order: partitions in order, each serving its rows in order
      for (int i = 0; i < rows.size(); i++) {
        replied(group.get(i), rows.get(i));
      }
    } catch (Throwable failure) { // the operation failed: Spark's reason, or the call was cancelled
      for (Pending p : group) {
        if (finish(p)) {
          p.listener.failed(ConnectFailures.operationFailed(spec, p.batch, failure));
        }
      }
    } finally {
      synchronized (this) {
        running -= group.size(); // after the listeners: a failure has cancelled the call before anything else starts
        if (!cancelled && !closed) {
          launchWhatFits();
        }
      }
    }
  }

  /** The worker's frames say how the batch went. */
  private void replied(Pending p, byte[] reply) throws IOException {
    boolean[] reported = {false};
    try {
      WorkerLink frames = WorkerLink.accept(new ByteArrayInputStream(reply), OutputStream.nullOutputStream(), () -> {});
      String worker = frames.worker();
      frames.readFrames(new WorkerLink.Events() {
        @Override
        public void started(long seq) {
          // the batch was told it started when its operation was sent
        }

        @Override
        public void progress(long seq, int tasksDone) {
          p.listener.taskDone(tasksDone);
        }

        @Override
        public void outcome(long seq, byte[] results) {
          if (seq == p.seq && finish(p)) {
            reported[0] = true;
            codec.completed(results, p.batch, worker, p.listener);
          }
        }

        @Override
        public void failed(long seq, FailureReport report) {
          if (seq == p.seq && finish(p)) {
            reported[0] = true;
            codec.failed(report, p.batch, worker, p.listener);
          }
        }
      });
    } catch (EOFException end) {
      // every frame read
    }
    if (!reported[0] && finish(p)) {
      p.listener.failed(ConnectFailures.replyUnreadable(spec, p.batch, new EOFException("no outcome")));
    }
  }

  /** Whether {@code p}'s outcome is still awaited (it counts only the first time). */
  private synchronized boolean finish(Pending p) {
    return inFlight.remove(p) && !cancelled;
  }

  @Override
  public void cancel() {
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      queue.clear();
    }
    interruptAsync();
  }

  /** Interrupts the call's operations on the server, off the caller's thread (it is an RPC). */
  private void interruptAsync() {
    Thread t = new Thread(() -> {
      try {
        session.interruptTag(tag);
      } catch (RuntimeException serverGone) {
        // nothing left to stop
      }
    }, "joblib4j-connect-cancel-" + spec.callId());
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() {
    boolean stillRunning;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      queue.clear();
      stillRunning = !inFlight.isEmpty();
    }
    if (stillRunning && !cancelled) {
      interruptAsync();
    }
    codec.close();
    onClose.run();
  }

  /** The failures the client itself raises for a call on Spark Connect. */
  static final class ConnectFailures {
    private ConnectFailures() {}

    static JoblibException operationFailed(CallSpec spec, Batch batch, Throwable cause) {
      String text = String.valueOf(cause);
      String advice = text.contains("ClassNotFoundException") || text.contains("NoClassDefFoundError")
          ? " The server's executors lack a class: joblib4j adds its own jars to the session as artifacts;"
            + " add the application's with the backend option jars (or session.addArtifact), and for"
            + " notebook or REPL code register the REPL's class finder (session.registerClassFinder)."
          : unreachable(cause)
          ? " The server could not be reached: it stopped, restarted or is cut off, and the work of this"
            + " call's tasks on it is lost. The Connect client had retried as the session's retry policy"
            + " says (by default 15 times, backing off to a minute each: about ten minutes); a shorter"
            + " policy, or a timeout on the Parallel, fails sooner."
          : "";
      return new JoblibException("joblib4j: the Spark Connect operation running " + batch.description()
          + " of " + spec.callId() + " (" + spec.description() + ") failed: " + text + "." + advice, cause);
    }

    /** Whether gRPC said the server could not be reached (status UNAVAILABLE), anywhere in the causes. */
    static boolean unreachable(Throwable t) {
      for (Throwable c = t; c != null; c = c.getCause()) {
        if (String.valueOf(c.getMessage()).contains("UNAVAILABLE")) {
          return true;
        }
      }
      return false;
    }

    static JoblibException replyUnreadable(CallSpec spec, Batch batch, Throwable cause) {
      return new JoblibException("joblib4j: the result of " + batch.description() + " of " + spec.callId()
          + " could not be read (" + cause + "); do the server's executors run the client's joblib4j?", cause);
    }
  }
}
