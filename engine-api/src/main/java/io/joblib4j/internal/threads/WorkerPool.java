package io.joblib4j.internal.threads;

import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads of one threads backend: daemon threads taking batches from one queue, at
 * most {@code target} of them working. A cancelled call's workers are interrupted and
 * <em>retired</em> — replaced by fresh threads at once — so a task that ignores the interrupt
 * cannot hold up the next call. Idle workers exit after {@code idleNanos}; the pool starts new
 * ones when work arrives.
 */
final class WorkerPool {
  private static final AtomicInteger POOL_IDS = new AtomicInteger();

  private final String name = "joblib4j-threads-" + POOL_IDS.incrementAndGet();
  private final long idleNanos;
  private final LinkedBlockingDeque<Job> queue = new LinkedBlockingDeque<>();
  private final List<Worker> workers = new ArrayList<>();
  private final AtomicInteger threadIds = new AtomicInteger();
  private int target;
  private boolean shutdown;

  WorkerPool(long idleNanos) {
    this.idleNanos = idleNanos;
  }

  /** A batch of a call, waiting for or held by a worker. */
  record Job(ThreadsCall call, Batch batch, BatchListener listener, Action initializer) {}

  /** Makes exactly {@code n} workers available, retiring extras once they are idle. */
  synchronized void resize(int n) {
    if (shutdown) {
      throw new IllegalStateException("this threads backend is closed; build a new Parallel");
    }
    target = n;
    while (workers.size() > n) {
      workers.remove(workers.size() - 1).retire();
    }
    while (workers.size() < n) {
      spawn();
    }
  }

  void submit(Job job) {
    queue.offerLast(job);
    synchronized (this) {
      // workers that idled out are replaced when work comes back
      while (!shutdown && workers.size() < target) {
        spawn();
      }
    }
  }

  /** Drops the call's batches that no worker has taken yet. */
  void dropQueued(ThreadsCall call) {
    queue.removeIf(j -> j.call() == call);
  }

  /** Drops the call's queued batches and retires the workers running its batches. */
  void cancel(ThreadsCall call) {
    queue.removeIf(j -> j.call() == call);
    synchronized (this) {
      List<Worker> stopped = new ArrayList<>();
      for (Worker w : workers) {
        if (w.interruptIfRunning(call)) {
          stopped.add(w);
        }
      }
      workers.removeAll(stopped);
      while (!shutdown && workers.size() < target) {
        spawn();
      }
    }
  }

  /** Stops every worker; running tasks are interrupted. */
  void shutdown() {
    List<Job> dropped = new ArrayList<>();
    synchronized (this) {
      shutdown = true;
      queue.drainTo(dropped);
      for (Worker w : workers) {
        w.retire();
        w.interruptIfRunning(null);
      }
      workers.clear();
    }
  }

  /** The threads currently working for this pool, for tests. */
  synchronized int liveWorkers() {
    return workers.size();
  }

  private void spawn() {
    Worker w = new Worker();
    Thread t = new Thread(w, name + "-worker-" + threadIds.incrementAndGet());
    t.setDaemon(true);
    w.thread = t;
    workers.add(w);
    t.start();
  }

  private synchronized boolean exitIfIdle(Worker w) {
    if (!queue.isEmpty() && !w.retired) {
      return false;
    }
    workers.remove(w);
    return true;
  }

  private final class Worker implements Runnable {
    Thread thread;
    private Job current;
    private volatile boolean retired;
    private final Set<Action> initialized = Collections.newSetFromMap(new IdentityHashMap<>());

    synchronized void retire() {
      retired = true;
      if (current == null) {
        thread.interrupt(); // wakes it from the queue so it exits now
      }
    }

    /** Retires and interrupts this worker if it runs a batch of {@code call} (any call if null). */
    synchronized boolean interruptIfRunning(ThreadsCall call) {
      if (current != null && (call == null || current.call() == call)) {
        retired = true;
        thread.interrupt();
        return true;
      }
      return false;
    }

    @Override
    public void run() {
      while (true) {
        Job job;
        try {
          job = queue.pollFirst(idleNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          job = null;
        }
        boolean stop;
        synchronized (this) {
          stop = retired;
          if (!stop && job != null) {
            current = job;
            Thread.interrupted(); // no stale interrupt may reach a task
          }
        }
        if (stop) {
          if (job != null) {
            queue.offerFirst(job); // not ours any more: another worker takes it
          }
          return;
        }
        if (job == null) {
          // outside this worker's monitor: the pool locks itself, then workers, never the reverse
          if (exitIfIdle(this)) {
            return;
          }
          continue;
        }
        try {
          execute(job);
        } finally {
          synchronized (this) {
            current = null;
            Thread.interrupted(); // an interrupt meant for the finished task stops here
            stop = retired;
          }
        }
        if (stop) {
          return;
        }
      }
    }

    private void execute(Job job) {
      if (job.call().cancelled()) {
        return;
      }
      Action init = job.initializer();
      if (init != null && !initialized.contains(init)) {
        try {
          init.invoke();
        } catch (Throwable t) {
          if (!job.call().cancelled()) {
            job.listener().failed(t);
          }
          return;
        }
        initialized.add(init);
      }
      job.listener().started();
      BatchOutcome outcome;
      try {
        outcome = job.batch().run("thread " + thread.getName(), job.listener()::taskDone);
      } catch (Throwable t) {
        if (!job.call().cancelled()) {
          job.listener().failed(t);
        }
        return;
      }
      if (!job.call().cancelled()) {
        job.listener().completed(outcome);
      }
    }
  }
}
