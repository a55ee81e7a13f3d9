package io.joblib4j.spark.internal;

import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.Warnings;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.FutureAction;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.BoxedUnit;

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
 * (Spark never retries it); the call's {@link BatchCodec} turns what workers report into the
 * caller's errors, as on every backend with workers in other JVMs. If an executor is lost, its
 * connection drops and the batch it held goes back to the front of the queue; Spark re-runs the
 * lost worker task elsewhere. A batch's outcome is accepted once, so nothing is lost or delivered
 * twice. What the driver itself raises is built in {@link DriverFailures}.
 *
 * <p>Reaching the driver: each worker task returns how it ended ({@link WorkerExit}). When one
 * could not reach the driver and no worker of the call has, the call either moves to the job
 * path ({@code channel=auto}: its queued batches go to a {@link JobPathCall}, and the channel
 * remembers, so later calls start there) or fails naming the settings ({@code channel=driver}) —
 * within the connect timeout, never a hang.
 */
final class SparkCall implements BackendCall {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCall.class);

  private final JavaSparkContext jsc;
  private final CallSpec spec;
  private final DriverChannel channel;
  private final BatchCodec codec;
  private final byte[] initializer;
  private final ClassLoader loader;
  private final byte[] token = ChannelCrypto.random(ChannelCrypto.TOKEN_BYTES);
  /** The key of a sealed channel, else null. */
  private final byte[] key;
  private final String jobGroup;
  private final Runnable onClose;
  /** Makes the job path this call moves to when executors cannot reach the driver; null: it may not. */
  private final LongFunction<JobPathCall> fallback;
  /** Where the worker job's results are handled, in order. */
  private final Executor events;

  private final ArrayDeque<PendingBatch> queue = new ArrayDeque<>();
  private final ArrayDeque<WorkerLink> idle = new ArrayDeque<>();
  private final Map<WorkerLink, PendingBatch> leased = new IdentityHashMap<>();
  private final Map<Long, PendingBatch> bySeq = new HashMap<>();
  private final List<WorkerLink> connections = new ArrayList<>();
  private long nextSeq;
  private int workersSeen;
  private boolean cancelled;
  private boolean closed;
  private boolean warnedUnreachable;
  /** Why the call cannot run any more, once its worker job ended or its workers were refused. */
  private Throwable ended;
  private volatile FutureAction<BoxedUnit> job;
  /** The job path the call moved to, once it did; then it serves everything. */
  private JobPathCall jobPath;

  /**
   * @param codec the call's codec, whose sharer makes broadcasts
   * @param initializer the serialized initializer, or null
   * @param sealed whether the call's connections are encrypted
   * @param fallback makes the job path (given the next batch number) for executors that cannot reach
   *     the driver, or null to fail the call instead
   */
  SparkCall(JavaSparkContext jsc, CallSpec spec, DriverChannel channel, BatchCodec codec, byte[] initializer,
      boolean sealed, LongFunction<JobPathCall> fallback, Runnable onClose) {
    this.jsc = jsc;
    this.onClose = onClose;
    this.spec = spec;
    this.channel = channel;
    this.codec = codec;
    this.initializer = initializer;
    this.key = sealed ? ChannelCrypto.random(ChannelCrypto.KEY_BYTES) : null;
    this.fallback = fallback;
    ClassLoader tccl = Thread.currentThread().getContextClassLoader();
    this.loader = tccl != null ? tccl : SparkCall.class.getClassLoader();
    this.jobGroup = spec.callId();
    this.events = PartitionJobs.serialEvents("joblib4j-spark-job-" + spec.callId());
  }

  String callId() {
    return spec.callId();
  }

  byte[] token() {
    return token;
  }

  boolean sealed() {
    return key != null;
  }

  /** The key of a sealed channel (null if plain). */
  byte[] key() {
    return key;
  }

  /** Launches the worker tasks: one Spark job with a partition per worker. */
  void start(ExecutorWorker worker, String description) {
    channel.register(this);
    JobProperties saved = JobProperties.set(jsc, jobGroup, description);
    try {
      List<Integer> slots = IntStream.range(0, spec.nJobs()).boxed().collect(Collectors.toList());
      job = PartitionJobs.submit(jsc.parallelize(slots, spec.nJobs()), worker, events,
          (slot, exit) -> workerEnded(WorkerExit.decode(exit)), this::workerJobEnded);
    } finally {
      saved.restore();
    }
  }

  // ---- from the core -----------------------------------------------------------------------

  @Override
  public void submit(Batch batch, BatchListener listener) {
    byte[] payload;
    try {
      payload = codec.encodeBatch(batch);
    } catch (TaskSerializationException e) {
      listener.failed(e);
      return;
    }
    WorkerLink free;
    PendingBatch p;
    Throwable late;
    JobPathCall moved;
    synchronized (this) {
      moved = jobPath;
      late = closed ? null : ended;
      if (moved != null) {
        p = new PendingBatch(nextSeq++, batch, listener, payload);
        free = null;
      } else if (cancelled || closed) {
        p = null;
        free = null;
      } else {
        p = new PendingBatch(nextSeq++, batch, listener, payload);
        bySeq.put(p.seq, p);
        free = idle.poll();
        if (free == null) {
          queue.add(p);
        } else {
          leased.put(free, p);
        }
      }
    }
    if (moved != null) {
      moved.adopt(p);
    } else if (free != null) {
      send(free, p);
    } else if (p == null && late != null) {
      listener.failed(late); // submitted after the job ended: nothing would ever run it
    }
  }

  @Override
  public void cancel() {
    List<WorkerLink> all;
    JobPathCall moved;
    synchronized (this) {
      moved = jobPath;
      if (cancelled) {
        return;
      }
      cancelled = true;
      queue.clear();
      all = new ArrayList<>(connections);
    }
    if (moved != null) {
      moved.cancel();
    } else {
      // interrupts the task threads (interruptOnCancel) and drops worker tasks not started yet
      jsc.sc().cancelJobGroup(jobGroup);
    }
    all.forEach(WorkerLink::close); // frees workers blocked waiting for a batch
  }

  @Override
  public void close() {
    List<WorkerLink> all;
    boolean someNeverStarted;
    JobPathCall moved;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      moved = jobPath;
      queue.clear();
      all = new ArrayList<>(connections);
      someNeverStarted = workersSeen < spec.nJobs();
    }
    channel.unregister(this);
    all.forEach(WorkerLink::sendExit);
    if (moved != null) {
      moved.close(); // closes the codec
      onClose.run();
      return;
    }
    if (!cancelled) {
      if (someNeverStarted) {
        // more workers than free slots: the rest would only start to find the call over
        jsc.sc().cancelJobGroup(jobGroup);
      } else {
        // workers return at once on EXIT; a task Spark is still re-running for a lost executor
        // would hold a slot the next call needs, so what is left after a moment is cancelled
        CompletableFuture.delayedExecutor(2, TimeUnit.SECONDS).execute(() -> {
          FutureAction<BoxedUnit> workers = job;
          if (workers != null && !workers.isCompleted()) {
            jsc.sc().cancelJobGroup(jobGroup);
          }
        });
      }
    }
    codec.close(); // destroys the call's broadcasts
    onClose.run();
  }

  // ---- from the workers' connections ---------------------------------------------------------

  /** Runs in the connection's own thread until the worker leaves. */
  void serve(WorkerLink conn) {
    synchronized (this) {
      if (cancelled || closed || jobPath != null) {
        conn.close();
        return;
      }
      connections.add(conn);
      workersSeen++;
    }
    Thread.currentThread().setContextClassLoader(loader);
    workerFree(conn);
    try {
      conn.readFrames(new WorkerLink.Events() {
        @Override
        public void started(long seq) {
          PendingBatch p = live(seq);
          if (p != null) {
            p.listener.started();
          }
        }

        @Override
        public void progress(long seq, int tasksDone) {
          PendingBatch p = live(seq);
          if (p != null) {
            p.listener.taskDone(tasksDone);
          }
        }

        @Override
        public void outcome(long seq, byte[] results) {
          PendingBatch p = finish(conn, seq);
          if (p != null) {
            codec.completed(results, p.batch, conn.worker(), p.listener);
          }
          workerFree(conn);
        }

        @Override
        public void failed(long seq, FailureReport report) {
          PendingBatch p = finish(conn, seq);
          if (p != null) {
            codec.failed(report, p.batch, conn.worker(), p.listener);
          }
          workerFree(conn);
        }
      });
    } catch (IOException e) {
      lost(conn, e);
    }
  }

  /**
   * A worker the driver cannot serve connected (another joblib4j on the executors): the call
   * fails with {@code why}, and its other workers are cancelled.
   */
  void workerRefused(WorkerLink conn, String why) {
    conn.close();
    failWith(DriverFailures.workerJobEnded(spec, null, why));
  }

  /** A worker task ended; if it could not serve, the call falls back or fails. Runs on {@code events}. */
  private void workerEnded(WorkerExit exit) {
    switch (exit.kind()) {
      case UNREACHABLE -> unreachable(exit.detail());
      case REFUSED -> failWith(DriverFailures.workerRefused(spec, exit.detail()));
      case SERVED, LATE -> { }
    }
  }

  /** A worker could not reach the driver: with none connected, the call moves to the job path or fails. */
  private void unreachable(String why) {
    List<PendingBatch> moved;
    JobPathCall path;
    synchronized (this) {
      if (cancelled || closed || jobPath != null) {
        return;
      }
      if (workersSeen > 0) {
        if (!warnedUnreachable) {
          warnedUnreachable = true;
          Warnings.warn(SparkCall.class, "joblib4j: " + why + "; the call goes on with the workers that"
              + " reached the driver. " + DriverFailures.reachAdvice());
        }
        return;
      }
      if (fallback == null) {
        path = null;
        moved = null;
      } else {
        path = fallback.apply(nextSeq);
        jobPath = path;
        moved = new ArrayList<>(queue);
        queue.clear();
        bySeq.clear();
      }
    }
    if (path == null) {
      failWith(DriverFailures.driverUnreachable(spec, why));
      return;
    }
    channel.unregister(this);
    channel.markUnreachable(why);
    Warnings.warn(SparkCall.class, "joblib4j: " + why + ". This call and the next ones on this SparkContext"
        + " run their batches as Spark jobs instead (" + SparkJoblibKeys.key(SparkJoblibKeys.CHANNEL) + "=auto),"
        + " which costs a Spark job launch per batch. " + DriverFailures.reachAdvice());
    FutureAction<BoxedUnit> workers = job;
    if (workers != null) {
      workers.cancel(); // its other workers would only try the same (if null, they soon find out)
    }
    moved.forEach(path::adopt);
  }

  /** The call cannot go on: its unfinished batches fail with {@code failure}, its workers are cancelled. */
  private void failWith(Throwable failure) {
    if (failUnfinished(failure)) {
      jsc.sc().cancelJobGroup(jobGroup); // the other workers cannot be served either
    }
  }

  /** The batch {@code seq} is over on {@code conn}: its outcome counts only the first time. */
  private synchronized PendingBatch finish(WorkerLink conn, long seq) {
    PendingBatch held = leased.get(conn);
    if (held != null && held.seq == seq) {
      leased.remove(conn);
    }
    PendingBatch p = bySeq.remove(seq);
    return cancelled ? null : p;
  }

  private synchronized PendingBatch live(long seq) {
    return cancelled ? null : bySeq.get(seq);
  }

  private void workerFree(WorkerLink conn) {
    PendingBatch next;
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

  private void send(WorkerLink conn, PendingBatch p) {
    try {
      conn.sendBatch(p.seq, initializer, p.payload);
      ChannelStats.batchSent(p.payload.length);
    } catch (IOException e) {
      conn.close();
      // the connection's reader sees the close and re-queues the batch
    }
  }

  /** The worker is gone: a batch it held goes back to the front of the queue for another worker. */
  private void lost(WorkerLink conn, IOException why) {
    PendingBatch orphan;
    WorkerLink free = null;
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

  /**
   * Fails every unfinished batch with {@code failure}; nothing can run any more.
   *
   * @return whether this ended the call (false if it was over, or moved to the job path)
   */
  private boolean failUnfinished(Throwable failure) {
    List<PendingBatch> unfinished;
    synchronized (this) {
      if (cancelled || closed || jobPath != null) {
        return false;
      }
      unfinished = new ArrayList<>(bySeq.values());
      bySeq.clear();
      queue.clear();
      cancelled = true; // nothing can run any more
      ended = failure;
    }
    for (PendingBatch p : unfinished) {
      p.listener.failed(failure);
    }
    return true;
  }

  /** The worker job is over before the call: what is unfinished fails with its reason. Runs on {@code events}. */
  private void workerJobEnded(Throwable cause) {
    synchronized (this) {
      if (cancelled || closed || jobPath != null) {
        return;
      }
    }
    failUnfinished(DriverFailures.workerJobEnded(spec, cause, null));
  }
}
