package io.joblib4j.internal.processes;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Every worker pool of this JVM: the shared ones, reused by any {@code processes} backend with the
 * same {@link PoolKey} (loky's reusable executor: a {@code Parallel} built for each call still
 * finds warm workers), and the private ones of backends built with {@code reuse=false}. Also the
 * one daemon thread that times things (idle reaping, start timeouts) and the JVM exit hook that
 * kills the workers and deletes the temporary files.
 *
 * <p>When a call needs a pool whose key differs from an unused shared pool only by thread budget
 * (the same backend, another {@code nJobs}), the old pool is shut down rather than left idling:
 * its workers would never be used again.
 */
final class WorkerPools {
  private static final Map<PoolKey, WorkerPool> SHARED = new HashMap<>();
  private static final Set<WorkerPool> ALL = ConcurrentHashMap.newKeySet();
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "joblib4j-processes-timer");
    t.setDaemon(true);
    return t;
  });
  private static final long REAP_PERIOD_MILLIS = 500;
  /**
   * How long after the first pool starts the leftovers of dead JVMs are swept (at exit if sooner);
   * a property so that a test can make any program shorter than it.
   */
  private static final long SWEEP_DELAY_MILLIS = Long.getLong("joblib4j.processes.sweepDelayMillis", 2_000);
  private static volatile Path scratchDir;
  private static volatile Path resultsDir;
  private static boolean started;

  private WorkerPools() {}

  /**
   * Starts a call on the shared pool for {@code key}, created if needed. The call is made and
   * registered with the pool under the registry's lock, so the idle reaper cannot retire the pool
   * in between.
   */
  static ProcessesCall startShared(PoolKey key, Function<WorkerPool, ProcessesCall> newCall) {
    List<WorkerPool> replaced = new ArrayList<>();
    ProcessesCall call;
    synchronized (SHARED) {
      startOnce();
      for (Iterator<Map.Entry<PoolKey, WorkerPool>> it = SHARED.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<PoolKey, WorkerPool> e = it.next();
        if (!e.getKey().equals(key) && e.getKey().sameFamily(key) && e.getValue().unused()) {
          replaced.add(e.getValue());
          it.remove();
        }
      }
      WorkerPool pool = SHARED.computeIfAbsent(key, WorkerPool::new);
      ALL.add(pool);
      call = newCall.apply(pool);
      pool.callStarted(call);
    }
    for (WorkerPool p : replaced) {
      ALL.remove(p);
      p.shutdown();
    }
    return call;
  }

  /** The shared pool for {@code key} if there is one, for tests. */
  static WorkerPool sharedIfPresent(PoolKey key) {
    synchronized (SHARED) {
      return SHARED.get(key);
    }
  }

  /** A new pool owned by one backend; {@link #discard} it when the backend closes. */
  static WorkerPool owned(PoolKey key) {
    synchronized (SHARED) {
      startOnce();
    }
    WorkerPool pool = new WorkerPool(key);
    ALL.add(pool);
    return pool;
  }

  static void discard(WorkerPool pool) {
    ALL.remove(pool);
    pool.shutdown();
  }

  /** This JVM's folder for worker argument files (long command lines). */
  static Path scratchDir() {
    Path d = scratchDir;
    if (d == null) {
      synchronized (WorkerPools.class) {
        d = scratchDir;
        if (d == null) {
          d = TempFolders.create(Path.of(System.getProperty("java.io.tmpdir")), "scratch");
          scratchDir = d;
        }
      }
    }
    return d;
  }

  /**
   * This JVM's folder for results workers spill to files (those too large to travel well in the
   * connection): {@code /dev/shm} when it has room, as for shared arguments, else the temp folder.
   */
  static Path resultsDir() {
    Path d = resultsDir;
    if (d == null) {
      synchronized (WorkerPools.class) {
        d = resultsDir;
        if (d == null) {
          d = TempFolders.create(TempFolders.baseFor(null), "results");
          resultsDir = d;
        }
      }
    }
    return d;
  }

  static void schedule(Runnable r, long delayMillis) {
    TIMER.schedule(r, delayMillis, TimeUnit.MILLISECONDS);
  }

  private static void startOnce() {
    if (started) {
      return;
    }
    started = true;
    TIMER.scheduleWithFixedDelay(WorkerPools::reap, REAP_PERIOD_MILLIS, REAP_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    // what JVMs killed -9 left behind: swept a while after the first call starts, or at exit if
    // sooner, off the path of a short program's first call (TempFolders.sweepLater)
    TIMER.schedule(WorkerPools::sweepLeftovers, SWEEP_DELAY_MILLIS, TimeUnit.MILLISECONDS);
    Runtime.getRuntime().addShutdownHook(new Thread(WorkerPools::exiting, "joblib4j-processes-exit"));
  }

  /** Sweeps the default temporary folders and those this JVM made folders in; once each per JVM. */
  private static void sweepLeftovers() {
    TempFolders.sweepLater(TempFolders.baseFor(null));
    TempFolders.sweepLater(Path.of(System.getProperty("java.io.tmpdir")));
    TempFolders.sweepPending();
  }

  private static void reap() {
    long now = System.nanoTime();
    for (WorkerPool p : ALL) {
      p.keptArrays().expungeCollected();
      if (p.reapIdle(now)) {
        synchronized (SHARED) {
          if (SHARED.get(p.key()) == p && p.reapIdle(now)) {
            SHARED.remove(p.key());
            ALL.remove(p);
            p.keptArrays().close(); // the pool has ended: no later call can use its files
          }
        }
      }
    }
  }

  /** JVM exit: workers would notice on their own; killing them makes it immediate. */
  private static void exiting() {
    for (WorkerPool p : ALL) {
      p.killAll();
    }
    CallFolder.closeAll();
    TempFolders.deleteTree(scratchDir);
    TempFolders.deleteTree(resultsDir);
    sweepLeftovers(); // nothing if the timer swept already
  }

  /** Shuts every pool down and waits for the workers to exit; for tests. */
  static void shutdownAllForTests() {
    List<WorkerPool> pools;
    synchronized (SHARED) {
      pools = new ArrayList<>(ALL);
      SHARED.clear();
      ALL.clear();
    }
    List<Process> processes = new ArrayList<>();
    for (WorkerPool p : pools) {
      processes.addAll(p.processes());
      p.shutdown();
    }
    for (Process proc : processes) {
      try {
        proc.onExit().get(15, TimeUnit.SECONDS);
      } catch (Exception e) {
        proc.destroyForcibly();
      }
    }
  }
}
