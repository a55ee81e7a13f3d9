package io.joblib4j.spark.internal;

import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WorkerLink;
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
 * (Spark never retries it); the call's {@link BatchCodec} turns what workers report into the
 * caller's errors, as on every backend with workers in other JVMs. If an executor is lost, its
 * connection drops and the batch it held goes back to the front of the queue; Spark re-runs the
 * lost worker task elsewhere. A batch's outcome is accepted once, so nothing is lost or delivered
 * twice. What the driver itself raises is built in {@link DriverFailures}.
 */
final class SparkCall implements BackendCall {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCall.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final JavaSparkContext jsc;
  private final CallSpec spec;
  private final DriverChannel channel;
  private final BatchCodec codec;
  private final byte[] initializer;
  private final ClassLoader loader;
  private final byte[] token = new byte[32];
  private final String jobGroup;
  private final Runnable onClose;

  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final ArrayDeque<WorkerLink> idle = new ArrayDeque<>();
  private final Map<WorkerLink, Pending> leased = new IdentityHashMap<>();
  private final Map<Long, Pending> bySeq = new HashMap<>();
  private final List<WorkerLink> connections = new ArrayList<>();
  private long nextSeq;
  private int workersSeen;
  private boolean cancelled;
  private boolean closed;
  private String refusal;
  /** Why the call cannot run any more, once its worker job ended or its workers were refused. */
  private Throwable ended;
  private JavaFutureAction<Void> job;

  /** A batch waiting for, or held by, a worker. */
  private static final class Pending {
    final long seq;
    final Batch batch;
    final BatchListener listener;
    final byte[] payload;
    int attempts;

    Pending(long seq, Batch batch, BatchListener listener, byte[] payload) {
      this.seq = seq;
      this.batch = batch;
      this.listener = listener;
      this.payload = payload;
    }
  }

  /**
   * @param codec the call's codec, whose sharer makes broadcasts
   * @param initializer the serialized initializer, or null
   */
  SparkCall(JavaSparkContext jsc, CallSpec spec, DriverChannel channel, BatchCodec codec, byte[] initializer,
      Runnable onClose) {
    this.jsc = jsc;
    this.onClose = onClose;
    this.spec = spec;
    this.channel = channel;
    this.codec = codec;
    this.initializer = initializer;
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
      payload = codec.encodeBatch(batch);
    } catch (TaskSerializationException e) {
      listener.failed(e);
      return;
    }
    WorkerLink free;
    Pending p;
    Throwable late;
    synchronized (this) {
      late = closed ? null : ended;
      if (cancelled || closed) {
        p = null;
        free = null;
      } else {
        p = new Pending(nextSeq++, batch, listener, payload);
        bySeq.put(p.seq, p);
        free = idle.poll();
        if (free == null) {
          queue.add(p);
        } else {
          leased.put(free, p);
        }
      }
    }
    if (free != null) {
      send(free, p);
    } else if (p == null && late != null) {
      listener.failed(late); // submitted after the job ended: nothing would ever run it
    }
  }

  @Override
  public void cancel() {
    List<WorkerLink> all;
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
    all.forEach(WorkerLink::close);
  }

  @Override
  public void close() {
    List<WorkerLink> all;
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
    all.forEach(WorkerLink::sendExit);
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
    codec.close(); // destroys the call's broadcasts
    onClose.run();
  }

  // ---- from the workers' connections ---------------------------------------------------------

  /** Runs in the connection's own thread until the worker leaves. */
  void serve(WorkerLink conn) {
    synchronized (this) {
      if (cancelled || closed) {
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
          Pending p = live(seq);
          if (p != null) {
            p.listener.started();
          }
        }

        @Override
        public void progress(long seq, int tasksDone) {
          Pending p = live(seq);
          if (p != null) {
            p.listener.taskDone(tasksDone);
          }
        }

        @Override
        public void outcome(long seq, byte[] results) {
          Pending p = finish(conn, seq);
          if (p != null) {
            codec.completed(results, p.batch, conn.worker(), p.listener);
          }
          workerFree(conn);
        }

        @Override
        public void failed(long seq, FailureReport report) {
          Pending p = finish(conn, seq);
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
   * fails with {@code why} once its job ends, which it does at once since the call is cancelled.
   */
  void workerRefused(WorkerLink conn, String why) {
    synchronized (this) {
      if (refusal == null) {
        refusal = why;
      }
    }
    conn.close();
    failUnfinished(null);
  }

  /** The batch {@code seq} is over on {@code conn}: its outcome counts only the first time. */
  private synchronized Pending finish(WorkerLink conn, long seq) {
    Pending held = leased.get(conn);
    if (held != null && held.seq == seq) {
      leased.remove(conn);
    }
    Pending p = bySeq.remove(seq);
    return cancelled ? null : p;
  }

  private synchronized Pending live(long seq) {
    return cancelled ? null : bySeq.get(seq);
  }

  private void workerFree(WorkerLink conn) {
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

  private void send(WorkerLink conn, Pending p) {
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
    Pending orphan;
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
    failUnfinished(cause);
  }

  /** Fails every unfinished batch ({@link DriverFailures#workerJobEnded}); nothing can run any more. */
  private void failUnfinished(Throwable cause) {
    List<Pending> unfinished;
    Throwable failure;
    boolean refused;
    synchronized (this) {
      if (cancelled || closed) {
        return;
      }
      unfinished = new ArrayList<>(bySeq.values());
      bySeq.clear();
      queue.clear();
      cancelled = true; // nothing can run any more
      failure = DriverFailures.workerJobEnded(spec, cause, refusal);
      ended = failure;
      refused = refusal != null;
    }
    if (refused) {
      jsc.sc().cancelJobGroup(jobGroup); // the other workers cannot be served either
    }
    for (Pending p : unfinished) {
      p.listener.failed(failure);
    }
  }
}
