package io.joblib4j.spark.internal;

import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskStart;

/**
 * One {@code Parallel} call on the job path: each batch is a one-task Spark job ({@link
 * JobPathTask}) whose result carries the worker's frames back through Spark's own result path, so
 * nothing but Spark's RPC crosses between driver and executors — for clusters where executors
 * cannot open a connection to the driver ({@code spark.joblib4j.channel=job}, or {@code auto}
 * after the direct channel proved unreachable).
 *
 * <p>At most {@code nJobs} batches run at once. A batch starts when Spark starts its task (a
 * listener on Spark's events), so the core's timeout clock starts then; its tasks' progress
 * arrives with its result, which is why the backend's traits say, on this path, that tasks do not
 * report one by one (a timeout then applies to a whole batch). Everything a worker reports is read
 * from the frames by the same {@link WorkerLink} and {@link BatchCodec} as on the direct channel,
 * so errors are the same. A Spark job that fails — its executor lost more times than {@code
 * spark.task.maxFailures}, a result over {@code spark.driver.maxResultSize} — fails its batch
 * with Spark's reason.
 */
final class JobPathCall implements BackendCall {
  /** The local property that tells this call's jobs apart in Spark's events: call id, '/', batch seq. */
  static final String BATCH_PROPERTY = "joblib4j.batch";

  private final JavaSparkContext jsc;
  private final CallSpec spec;
  private final BatchCodec codec;
  private final byte[] initializer;
  private final JobPathTask task;
  private final String description;
  private final Runnable onClose;
  private final Executor events;
  private final TaskStarts starts = new TaskStarts();

  private final ArrayDeque<PendingBatch> queue = new ArrayDeque<>();
  private final Map<Long, PendingBatch> bySeq = new HashMap<>();
  private final Map<Integer, Long> stageToSeq = new HashMap<>();
  private final Map<Integer, List<Integer>> jobStages = new HashMap<>();
  private long nextSeq;
  private int running;
  private boolean cancelled;
  private boolean closed;

  /**
   * @param firstSeq the first batch number to use (after those a direct call already numbered)
   * @param description the Spark UI's description of the call's jobs
   */
  JobPathCall(JavaSparkContext jsc, CallSpec spec, BatchCodec codec, byte[] initializer, JobPathTask task,
      String description, long firstSeq, Runnable onClose) {
    this.jsc = jsc;
    this.spec = spec;
    this.codec = codec;
    this.initializer = initializer;
    this.task = task;
    this.description = description;
    this.nextSeq = firstSeq;
    this.onClose = onClose;
    this.events = PartitionJobs.serialEvents("joblib4j-spark-job-path-" + spec.callId());
    jsc.sc().addSparkListener(starts);
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    byte[] payload;
    try {
      payload = codec.encodeBatch(batch);
    } catch (TaskSerializationException e) {
      listener.failed(e);
      return;
    }
    synchronized (this) {
      if (cancelled || closed) {
        return;
      }
      adopt(new PendingBatch(nextSeq++, batch, listener, payload));
    }
  }

  /** Queues a batch already serialized and numbered (by a direct call falling back to this path). */
  synchronized void adopt(PendingBatch p) {
    if (cancelled || closed) {
      return;
    }
    bySeq.put(p.seq, p);
    queue.add(p);
    nextSeq = Math.max(nextSeq, p.seq + 1);
    launchWhatFits();
  }

  private void launchWhatFits() {
    while (running < spec.nJobs() && !queue.isEmpty()) {
      launch(queue.poll());
    }
  }

  /** One Spark job of one task for {@code p}; called holding the lock. */
  private void launch(PendingBatch p) {
    running++;
    byte[] request = WorkerLink.batchThenExit(p.seq, initializer, p.payload);
    ChannelStats.batchSent(p.payload.length);
    JobProperties saved = JobProperties.set(jsc, spec.callId(), description, BATCH_PROPERTY,
        spec.callId() + "/" + p.seq);
    try {
      PartitionJobs.submit(jsc.parallelize(List.of(request), 1), task, events,
          (index, reply) -> replied(p, reply), failure -> jobEnded(p, failure));
    } finally {
      saved.restore();
    }
  }

  /** The batch's task ended: its frames say how the batch went. Runs on the call's events thread. */
  private void replied(PendingBatch p, byte[] reply) {
    synchronized (this) {
      if (cancelled || !bySeq.containsKey(p.seq)) {
        freeSlot();
        return;
      }
    }
    boolean[] reported = {false};
    try {
      WorkerLink frames = WorkerLink.accept(new ByteArrayInputStream(reply), OutputStream.nullOutputStream(), () -> {});
      String worker = frames.worker();
      frames.readFrames(new WorkerLink.Events() {
        @Override
        public void started(long seq) {
          p.listener.started();
        }

        @Override
        public void progress(long seq, int tasksDone) {
          p.listener.taskDone(tasksDone);
        }

        @Override
        public void outcome(long seq, byte[] results) {
          if (finish(p)) {
            reported[0] = true;
            codec.completed(results, p.batch, worker, p.listener);
          }
        }

        @Override
        public void failed(long seq, FailureReport report) {
          if (finish(p)) {
            reported[0] = true;
            codec.failed(report, p.batch, worker, p.listener);
          }
        }
      });
    } catch (EOFException end) {
      // every frame read
    } catch (IOException e) {
      if (!reported[0] && finish(p)) {
        p.listener.failed(DriverFailures.jobPathReplyUnreadable(spec, p.batch, e));
      }
    }
    if (!reported[0] && finish(p)) {
      p.listener.failed(DriverFailures.jobPathReplyUnreadable(spec, p.batch, new EOFException("no outcome")));
    }
    synchronized (this) {
      freeSlot(); // after the listener: a failure has cancelled the call before anything else starts
    }
  }

  /** The batch's job is over; if it failed, so does the batch, with Spark's reason. */
  private void jobEnded(PendingBatch p, Throwable failure) {
    if (failure == null) {
      return; // its result came first
    }
    if (finish(p)) {
      p.listener.failed(DriverFailures.batchJobFailed(spec, p.batch, failure));
      synchronized (this) {
        freeSlot();
      }
    }
  }

  /** Whether {@code p}'s outcome is still awaited (it counts only the first time). */
  private synchronized boolean finish(PendingBatch p) {
    return bySeq.remove(p.seq) != null && !cancelled;
  }

  private void freeSlot() {
    running--;
    if (!cancelled && !closed) {
      launchWhatFits();
    }
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
    jsc.sc().cancelJobGroup(spec.callId()); // interrupts running tasks (interruptOnCancel)
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
      stillRunning = !bySeq.isEmpty();
    }
    if (stillRunning && !cancelled) {
      jsc.sc().cancelJobGroup(spec.callId());
    }
    jsc.sc().removeSparkListener(starts);
    codec.close(); // destroys the call's broadcasts
    onClose.run();
  }

  /** Tells a batch it started when Spark starts its task. Runs on Spark's listener thread. */
  private final class TaskStarts extends SparkListener {
    @Override
    public void onJobStart(SparkListenerJobStart start) {
      String tag = start.properties() == null ? null : start.properties().getProperty(BATCH_PROPERTY);
      String prefix = spec.callId() + "/";
      if (tag == null || !tag.startsWith(prefix)) {
        return;
      }
      long seq = Long.parseLong(tag.substring(prefix.length()));
      List<Integer> stages = ScalaCollections.asJava(start.stageIds()).stream().map(id -> (Integer) id).toList();
      synchronized (JobPathCall.this) {
        stages.forEach(stage -> stageToSeq.put(stage, seq));
        jobStages.put(start.jobId(), stages);
      }
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart taskStart) {
      PendingBatch p;
      synchronized (JobPathCall.this) {
        Long seq = stageToSeq.get(taskStart.stageId());
        p = seq == null || cancelled ? null : bySeq.get(seq);
      }
      if (p != null) {
        p.listener.started();
      }
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd end) {
      synchronized (JobPathCall.this) {
        List<Integer> stages = jobStages.remove(end.jobId());
        if (stages != null) {
          stages.forEach(stageToSeq::remove);
        }
      }
    }
  }
}
