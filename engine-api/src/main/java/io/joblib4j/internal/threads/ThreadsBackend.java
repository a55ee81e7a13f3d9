package io.joblib4j.internal.threads;

import io.joblib4j.internal.CpuCount;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendProvider;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.CallSpec;
import java.time.Duration;
import java.util.Map;

/**
 * The {@code threads} backend, joblib4j's default: batches run on daemon threads of this JVM, so
 * tasks share the caller's objects (and {@code require(SHAREDMEM)} holds). Workers are kept
 * between the calls of one {@code Parallel} and exit after {@code idleTimeout} (default 30 s)
 * without work.
 */
public final class ThreadsBackend implements Backend {
  static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
  private static final BackendTraits TRAITS = BackendTraits.threads();

  private final WorkerPool pool;

  public ThreadsBackend() {
    this(DEFAULT_IDLE_TIMEOUT);
  }

  public ThreadsBackend(Duration idleTimeout) {
    this.pool = new WorkerPool(idleTimeout.toNanos());
  }

  @Override
  public String name() {
    return "threads";
  }

  @Override
  public BackendTraits traits() {
    return TRAITS;
  }

  @Override
  public int capacity() {
    return CpuCount.get();
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    pool.resize(spec.nJobs());
    return new ThreadsCall(pool, spec);
  }

  /** Threads working for this backend, for tests. */
  int liveWorkers() {
    return pool.liveWorkers();
  }

  @Override
  public void close() {
    pool.shutdown();
  }

  /** Registers {@code threads} through {@code META-INF/services}. */
  public static final class Provider implements BackendProvider {
    @Override
    public String name() {
      return "threads";
    }

    @Override
    public ThreadsBackend create(Map<String, Object> options) {
      Duration idle = DEFAULT_IDLE_TIMEOUT;
      for (Map.Entry<String, Object> e : options.entrySet()) {
        if (!e.getKey().equals("idleTimeout")) {
          throw new IllegalArgumentException("unknown option \"" + e.getKey()
              + "\" for the threads backend; it knows: idleTimeout (a Duration or seconds)");
        }
        Object v = e.getValue();
        idle = v instanceof Duration d ? d
            : v instanceof Number n ? Duration.ofMillis((long) (n.doubleValue() * 1000))
            : Duration.parse(String.valueOf(v));
      }
      return new ThreadsBackend(idle);
    }

    @Override
    public String description() {
      return "daemon threads of this JVM (the default)";
    }
  }
}
