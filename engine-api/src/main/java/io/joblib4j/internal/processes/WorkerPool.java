package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.internal.worker.Codec;
import io.joblib4j.spi.worker.FailureReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker JVMs of one {@link PoolKey}, shared by every call that uses it, and the queue of
 * batches waiting for them. Calls take batches to idle workers first come, first served; each
 * worker runs one batch at a time.
 *
 * <p>Size: as many workers as the largest call in progress asks for; started in parallel (each by
 * its own thread) so that a first call waits for one JVM start, not {@code nJobs}. A worker that
 * crashes, or is killed because its call was cancelled, is replaced at once; workers idle for the
 * idle timeout exit when no call is in progress. A worker that cannot start is not started again
 * until the next call, and batches waiting for it fail with its error.
 */
final class WorkerPool {
  private static final LazyLogger LOG = LazyLogger.of(WorkerPool.class);

  private final PoolKey key;
  private final List<WorkerHandle> workers = new ArrayList<>();
  private final ArrayDeque<Job> queue = new ArrayDeque<>();
  private final Set<ProcessesCall> activeCalls = Collections.newSetFromMap(new IdentityHashMap<>());
  private final AtomicLong jobIds = new AtomicLong();
  private final PoolArrays keptArrays = new PoolArrays(this::release);
  private int target;
  private boolean startBroken;
  private boolean shutdown;

  WorkerPool(PoolKey key) {
    this.key = key;
  }

  PoolKey key() {
    return key;
  }

  /** The large arrays this pool's calls shared, kept across calls. */
  PoolArrays keptArrays() {
    return keptArrays;
  }

  long nextJobId() {
    return jobIds.incrementAndGet();
  }

  // ---- calls ---------------------------------------------------------------------------------

  void callStarted(ProcessesCall call) {
    List<WorkerHandle> extra = new ArrayList<>();
    synchronized (this) {
      if (shutdown) {
        throw new IllegalStateException("this processes backend is closed; build a new Parallel");
      }
      activeCalls.add(call);
      startBroken = false;
      int wanted = 0;
      for (ProcessesCall c : activeCalls) {
        wanted = Math.max(wanted, c.nJobs());
      }
      target = wanted;
      if (activeCalls.size() == 1) { // alone: shrink to what this call asks, as loky resizes
        long live = liveCount();
        for (WorkerHandle w : workers) {
          if (live > target && w.state == WorkerHandle.State.IDLE && !w.killed && !w.retiring) {
            w.retiring = true;
            extra.add(w);
            live--;
          }
        }
      }
      ensureWorkers();
    }
    extra.forEach(WorkerHandle::shutdown);
  }

  synchronized void callEnded(ProcessesCall call) {
    activeCalls.remove(call);
    queue.removeIf(j -> j.call() == call);
  }

  void submit(Job job) {
    synchronized (this) {
      if (shutdown) {
        throw new IllegalStateException("this processes backend is closed; build a new Parallel");
      }
      queue.add(job);
    }
    dispatch();
  }

  /** Drops the call's waiting batches and kills the workers running its batches; replaces them. */
  void cancel(ProcessesCall call) {
    List<WorkerHandle> doomed = new ArrayList<>();
    synchronized (this) {
      queue.removeIf(j -> j.call() == call);
      for (WorkerHandle w : workers) {
        if (w.job != null && w.job.call() == call && !w.killed) {
          w.killed = true;
          doomed.add(w);
        }
      }
      ensureWorkers();
    }
    doomed.forEach(WorkerHandle::kill);
  }

  /** Tells every connected worker to drop its copies of the call's shared arrays. */
  void release(String callId) {
    List<WorkerHandle> connected;
    synchronized (this) {
      connected = workers.stream().filter(w -> w.connected && !w.killed).toList();
    }
    for (WorkerHandle w : connected) {
      try {
        w.sendRelease(callId);
      } catch (IOException e) {
        LOG.get().debug("cannot tell worker {} to release call {}", w.name(), callId, e);
      }
    }
  }

  // ---- dispatch ------------------------------------------------------------------------------

  /** Gives waiting batches to idle workers; the bytes are sent outside the lock. */
  void dispatch() {
    record Send(WorkerHandle worker, Job job) {}
    List<Send> sends = new ArrayList<>();
    synchronized (this) {
      for (WorkerHandle w : workers) {
        if (queue.isEmpty()) {
          break;
        }
        if (w.state != WorkerHandle.State.IDLE || w.killed || w.retiring) {
          continue;
        }
        Job j;
        do {
          j = queue.poll();
        } while (j != null && j.call().isCancelled());
        if (j == null) {
          break;
        }
        w.state = WorkerHandle.State.BUSY;
        w.job = j;
        sends.add(new Send(w, j));
      }
      if (!queue.isEmpty()) {
        ensureWorkers();
      }
    }
    for (Send s : sends) {
      WorkerHandle w = s.worker();
      try {
        w.send(s.job());
      } catch (IOException e) {
        // the worker is dying; its reader reports the batch as lost with the cause
        LOG.get().debug("cannot send a batch to worker {}", w.name(), e);
        w.kill();
      }
    }
  }

  private void ensureWorkers() {
    if (shutdown || startBroken) {
      return;
    }
    for (long live = liveCount(); live < target; live++) {
      WorkerHandle w = new WorkerHandle(this);
      workers.add(w);
      w.start();
    }
  }

  private long liveCount() {
    return workers.stream().filter(w -> !w.killed && !w.retiring).count();
  }

  // ---- what workers report, from their reader threads -----------------------------------------

  void workerConnected(WorkerHandle w) {
    synchronized (this) {
      if (w.state != WorkerHandle.State.STARTING) {
        return;
      }
      w.state = WorkerHandle.State.IDLE;
      w.idleSinceNanos = System.nanoTime();
    }
    dispatch();
  }

  private synchronized Job jobOf(WorkerHandle w, long id) {
    return w.job != null && w.job.id() == id ? w.job : null;
  }

  /** The job ended on {@code w}, which is idle again (but gets no new batch until {@link #dispatch}). */
  private synchronized void finished(WorkerHandle w, Job job) {
    if (w.job == job) {
      w.job = null;
      if (w.state == WorkerHandle.State.BUSY) {
        w.state = WorkerHandle.State.IDLE;
      }
      w.idleSinceNanos = System.nanoTime();
    }
  }

  void jobStarted(WorkerHandle w, long id) {
    Job job = jobOf(w, id);
    if (job != null && !job.call().isCancelled()) {
      job.listener().started();
    }
  }

  void jobProgress(WorkerHandle w, long id, int done) {
    Job job = jobOf(w, id);
    if (job != null && !job.call().isCancelled()) {
      job.listener().taskDone(done);
    }
  }

  void jobOutcome(WorkerHandle w, long id, byte[] results) {
    Job job = jobOf(w, id);
    if (job == null) {
      return;
    }
    finished(w, job);
    // completing first lets a failed call cancel before this worker is handed another of its batches
    if (!job.call().isCancelled()) {
      job.call().codec().completed(results, job.batch(), w.name(), job.listener());
    }
    dispatch();
  }

  /** As {@link #jobOutcome}, the results in a file the worker wrote, read and deleted here. */
  void jobSpilled(WorkerHandle w, long id, Path file, long bytes) {
    Job job = jobOf(w, id);
    if (job == null) {
      deleteQuietly(file);
      return;
    }
    finished(w, job);
    if (!job.call().isCancelled()) {
      job.call().codec().completed(file, bytes, job.batch(), w.name(), job.listener());
    } else {
      deleteQuietly(file);
    }
    dispatch();
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.get().debug("cannot delete {}", file, e);
    }
  }

  void jobFailed(WorkerHandle w, long id, FailureReport report) {
    Job job = jobOf(w, id);
    if (job == null) {
      return;
    }
    finished(w, job);
    if (!job.call().isCancelled()) {
      job.call().codec().failed(report, job.batch(), w.name(), job.listener());
    }
    dispatch();
  }

  void workerDied(WorkerHandle w, CrashDiagnosis d) {
    Job job;
    List<Job> stranded = new ArrayList<>();
    boolean expected;
    synchronized (this) {
      workers.remove(w);
      w.state = WorkerHandle.State.DEAD;
      job = w.job;
      w.job = null;
      expected = w.killed || w.retiring || shutdown;
      if (!expected && !w.connected) {
        startBroken = true; // do not start JVMs in a loop that cannot start; the next call tries again
        boolean others = workers.stream().anyMatch(x -> !x.killed && !x.retiring);
        if (!others) {
          stranded.addAll(queue);
          queue.clear();
        }
      }
      if (!expected) {
        ensureWorkers();
      }
    }
    if (!expected && job == null && stranded.isEmpty()) {
      if (w.connected) {
        LOG.get().warn("idle worker {} died: {}", w.name(), d.likelyCause());
      } else {
        LOG.get().debug("worker {} could not start: {}", w.name(), d.lastOutput());
      }
    }
    if (job != null && !job.call().isCancelled()) {
      OutOfMemoryError ours = w.parentOutOfMemory;
      job.listener().failed(ours != null ? Codec.parentOutOfMemory(job.batch(), w.name(), -1, ours)
          : d.exception(job.batch().description()));
    }
    for (Job s : stranded) {
      if (!s.call().isCancelled()) {
        s.listener().failed(d.exception(s.batch().description()));
      }
    }
    dispatch();
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Retires workers idle for longer than the idle timeout; true if the pool is now empty and unused. */
  boolean reapIdle(long nowNanos) {
    List<WorkerHandle> idle = new ArrayList<>();
    boolean empty;
    synchronized (this) {
      if (activeCalls.isEmpty()) {
        long limit = key.idleTimeout().toNanos();
        for (WorkerHandle w : workers) {
          if (w.state == WorkerHandle.State.IDLE && !w.killed && !w.retiring && nowNanos - w.idleSinceNanos > limit) {
            w.retiring = true;
            idle.add(w);
          }
        }
        target = (int) liveCount();
      }
      empty = activeCalls.isEmpty() && queue.isEmpty() && liveCount() == 0;
    }
    idle.forEach(WorkerHandle::shutdown);
    return empty;
  }

  /** Whether no call uses this pool right now. */
  synchronized boolean unused() {
    return activeCalls.isEmpty();
  }

  /** Stops every worker (politely, then by force); the pool takes no more calls. */
  void shutdown() {
    List<WorkerHandle> all;
    synchronized (this) {
      shutdown = true;
      queue.clear();
      all = new ArrayList<>(workers);
      all.forEach(w -> w.retiring = true);
    }
    all.forEach(WorkerHandle::shutdown);
    keptArrays.close();
  }

  /**
   * Kills every worker at once: this JVM is exiting. Kept warm, idle workers are parked for the next
   * program instead, and starting ones left to park themselves ({@link WarmWorkers}); otherwise an
   * idle worker recording the class-data-sharing archive is asked to exit, so that it writes the
   * archive on its way out.
   */
  void killAll() {
    List<WorkerHandle> all;
    synchronized (this) {
      shutdown = true;
      all = new ArrayList<>(workers);
      all.forEach(w -> w.killed = true);
    }
    keptArrays.close();
    List<WorkerHandle> idle = new ArrayList<>();
    for (WorkerHandle w : all) {
      boolean isIdle = w.connected && w.state == WorkerHandle.State.IDLE;
      if (isIdle && key.keepsWarm() && (w.parksItself || w.adopted)) {
        idle.add(w); // a recording worker too: it dumps the archive after its first batch, wherever it is
      } else if (isIdle && w.recordsCds) {
        w.shutdown();
      } else if (!w.connected && w.parksItself) {
        // still starting: it finds this JVM gone and parks itself for the next program
      } else {
        w.kill();
      }
    }
    parkOrKill(idle);
  }

  /**
   * Parks idle workers for the next program with this pool's key ({@link WarmWorkers}), each told
   * where to wait; waits at most {@link #PARK_ANSWER_MILLIS} in all for their answers, as this JVM
   * is exiting, and kills those that did not answer.
   */
  private void parkOrKill(List<WorkerHandle> idle) {
    if (idle.isEmpty()) {
      return;
    }
    WarmWorkers.Note note = WarmWorkers.noteFor(key);
    long deadline = System.nanoTime() + PARK_ANSWER_MILLIS * 1_000_000;
    for (WorkerHandle w : idle) {
      long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
      if (note == null || !w.park(note, left)) {
        w.kill();
      }
    }
  }

  /** How long a JVM's exit waits for its idle workers to say they parked. */
  static final long PARK_ANSWER_MILLIS = 1000;

  /** The pids of the live workers that have connected, for tests and diagnostics. */
  synchronized List<Long> workerPids() {
    return workers.stream().filter(w -> w.connected && !w.killed && !w.retiring).map(w -> w.pid).toList();
  }

  /** The processes of every worker this pool still tracks, for tests. */
  synchronized List<Process> processes() {
    return workers.stream().map(WorkerHandle::process).filter(p -> p != null).toList();
  }
}
