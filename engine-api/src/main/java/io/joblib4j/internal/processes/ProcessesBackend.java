package io.joblib4j.internal.processes;

import io.joblib4j.Parallel;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendProvider;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.CallSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code processes} backend, joblib's {@code loky}: batches run in child JVMs started with this
 * JVM's {@code java}, class path and module flags, and talk to it over a local socket. Workers are
 * reused across calls and — unless {@code reuse=false} — across backends with equal settings, exit
 * after an idle timeout, and exit with this JVM however it ends. A worker that dies fails its call
 * with a {@link io.joblib4j.WorkerCrashedException} and is replaced.
 *
 * <p>{@link #close()} cancels this backend's calls still running; shared workers stay for other
 * backends until their idle timeout, as loky's reusable executor does.
 */
public final class ProcessesBackend implements Backend {
  /** Workers of workers of ... stop here, so that a recursive task cannot fork JVMs without end. */
  static final int MAX_DEPTH = 8;
  private static final BackendTraits TRAITS = BackendTraits.otherJvms(1);

  private final ProcessesOptions options;
  private final Set<ProcessesCall> open = ConcurrentHashMap.newKeySet();
  private final Map<PoolKey, WorkerPool> owned = new HashMap<>();
  private volatile boolean closed;

  ProcessesBackend(ProcessesOptions options) {
    this.options = options;
    if (options.inheritJvmOptions()) {
      InheritedJvmOptions.prefetch(); // ready by the time the first call builds its launch spec
    }
    if (!options.keepWarm().isZero()) {
      WarmWorkers.prefetch(Thread.currentThread().getContextClassLoader());
    }
  }

  @Override
  public String name() {
    return "processes";
  }

  @Override
  public BackendTraits traits() {
    return TRAITS;
  }

  @Override
  public int capacity() {
    return Parallel.cpuCount();
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    if (closed) {
      throw new IllegalStateException("this processes backend is closed; build a new Parallel");
    }
    if (LaunchSpec.currentDepth() >= MAX_DEPTH) {
      throw new IllegalStateException("a processes backend nested " + MAX_DEPTH + " worker JVMs deep:"
          + " tasks that start Parallel calls on processes recursively would fork JVMs without end; use"
          + " threads for the inner calls");
    }
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    WorkerClasspath classpath = WorkerClasspath.of(context);
    PoolKey key = new PoolKey(LaunchSpec.of(options, classpath), spec.threadBudget(), options.idleTimeout(),
        options.startTimeout(), options.keepWarm());
    ClassLoader loader = context != null ? context : ProcessesBackend.class.getClassLoader();
    ProcessesCall call;
    if (options.reuse()) {
      call = WorkerPools.startShared(key, pool -> new ProcessesCall(this, pool, spec, classpath, loader));
    } else {
      WorkerPool pool = ownedPool(key);
      call = new ProcessesCall(this, pool, spec, classpath, loader);
      pool.callStarted(call);
    }
    open.add(call);
    return call;
  }

  private WorkerPool ownedPool(PoolKey key) {
    List<WorkerPool> replaced = new ArrayList<>();
    WorkerPool pool;
    synchronized (owned) {
      owned.entrySet().removeIf(e -> {
        boolean stale = !e.getKey().equals(key) && e.getValue().unused();
        if (stale) {
          replaced.add(e.getValue());
        }
        return stale;
      });
      pool = owned.computeIfAbsent(key, WorkerPools::owned);
    }
    replaced.forEach(WorkerPools::discard);
    return pool;
  }

  /** The pool of a backend with {@code reuse=false} that made one call (or several with one key); for tests. */
  WorkerPool poolForTests() {
    synchronized (owned) {
      return owned.values().iterator().next();
    }
  }

  void callClosed(ProcessesCall call) {
    open.remove(call);
  }

  /** The pids of the workers of this backend's own pools ({@code reuse=false}); for tests. */
  List<Long> ownedWorkerPids() {
    synchronized (owned) {
      return owned.values().stream().flatMap(p -> p.workerPids().stream()).toList();
    }
  }

  ProcessesOptions options() {
    return options;
  }

  @Override
  public void close() {
    closed = true;
    for (ProcessesCall c : open.toArray(new ProcessesCall[0])) {
      c.cancel();
      c.close();
    }
    List<WorkerPool> pools;
    synchronized (owned) {
      pools = new ArrayList<>(owned.values());
      owned.clear();
    }
    pools.forEach(WorkerPools::discard);
  }

  /** Creates a {@code processes} backend from {@code ParallelConfig} options; registered in {@code META-INF/services}. */
  public static final class Provider implements BackendProvider {
    @Override
    public String name() {
      return "processes";
    }

    @Override
    public Backend create(Map<String, Object> options) {
      return new ProcessesBackend(ProcessesOptions.parse(options));
    }

    @Override
    public String description() {
      return "child JVMs of this JVM, reused across calls (joblib's loky)";
    }
  }

  /** A backend with these options, for {@link io.joblib4j.Processes}. */
  public static Backend create(Map<String, Object> options) {
    return new ProcessesBackend(ProcessesOptions.parse(options));
  }
}
