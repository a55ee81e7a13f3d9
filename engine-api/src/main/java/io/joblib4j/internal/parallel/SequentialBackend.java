package io.joblib4j.internal.parallel;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendProvider;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.CallSpec;
import java.util.Map;

/**
 * The {@code sequential} backend: tasks run one after the other in the caller's thread, lazily as
 * the caller reads results, with no threads, no serialization and no timeout. The core runs it
 * itself ({@link SequentialRun}); it is also what any thread backend falls back to for one job.
 */
public final class SequentialBackend implements Backend {
  static final BackendTraits TRAITS = new BackendTraits(true, true, false, true, 1);

  @Override
  public String name() {
    return "sequential";
  }

  @Override
  public BackendTraits traits() {
    return TRAITS;
  }

  @Override
  public int capacity() {
    return 1;
  }

  @Override
  public int effectiveNJobs(int nJobs) {
    if (nJobs == 0) {
      throw new IllegalArgumentException("nJobs == 0 has no meaning");
    }
    return 1;
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    throw new UnsupportedOperationException("the core runs sequential calls itself");
  }

  @Override
  public void close() {}

  /** Registers {@code sequential} through {@code META-INF/services}. */
  public static final class Provider implements BackendProvider {
    @Override
    public String name() {
      return "sequential";
    }

    @Override
    public SequentialBackend create(Map<String, Object> options) {
      if (!options.isEmpty()) {
        throw new IllegalArgumentException("the sequential backend takes no options, got " + options.keySet());
      }
      return new SequentialBackend();
    }

    @Override
    public String description() {
      return "tasks run one by one in the caller's thread";
    }
  }
}
