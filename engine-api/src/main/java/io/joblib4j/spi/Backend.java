package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * Where the batches of a {@code Parallel} call run: threads of this JVM, child JVMs, Spark
 * executors. A backend only <em>executes</em> batches; dispatching, batching, ordering, timeouts,
 * cancellation and progress live once, in joblib4j's core, for every backend.
 *
 * <p>The core calls {@link #startCall} once per {@code Parallel} call, submits batches to the
 * returned {@link BackendCall}, and closes it at the end of the call. A backend instance may serve
 * several calls one after the other (a {@code Parallel} used in try-with-resources reuses its
 * workers) and is released by {@link #close}.
 *
 * <p>Backends are found by name through {@link BackendProvider}s ({@code META-INF/services}, read
 * through the thread context class loader) or registered with {@link Backends#register}; an
 * instance can also be handed to {@code Parallel.builder().backend(instance)} directly.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface Backend extends AutoCloseable {

  /**
   * The name this backend is registered under, e.g. {@code "threads"}.
   *
   * @return the name
   */
  String name();

  /**
   * What the core may assume about this backend.
   *
   * @return the traits
   */
  BackendTraits traits();

  /**
   * How many workers this backend could run at once right now if asked for all of them: CPUs for
   * the local backends, task slots for Spark. Negative {@code nJobs} are resolved against it
   * ({@code -1} = all, {@code -2} = all but one, ...).
   *
   * @return the number of workers, at least 1
   */
  int capacity();

  /**
   * The number of workers that will really run a call asked for {@code nJobs} ({@code nJobs != 0};
   * the core rejects 0). The default resolves negatives against {@link #capacity()} as joblib does
   * and keeps positive values, oversubscription included.
   *
   * @param nJobs the jobs asked for, not 0
   * @return the number of workers, at least 1
   */
  default int effectiveNJobs(int nJobs) {
    if (nJobs == 0) {
      throw new IllegalArgumentException("nJobs == 0 has no meaning");
    }
    return nJobs > 0 ? nJobs : Math.max(capacity() + 1 + nJobs, 1);
  }

  /**
   * How the core should batch this backend's calls when the user sets neither {@code batchSize} nor
   * {@code preDispatch}. The default, {@link Batching#ADAPTIVE}, is joblib's rule; a backend whose
   * every batch is a costly remote operation returns {@link Batching#ONE_PER_WORKER}.
   *
   * @return the hint
   */
  default Batching batching() {
    return Batching.ADAPTIVE;
  }

  /**
   * Prepares one {@code Parallel} call: starts or resizes workers, runs nothing yet. Workers that
   * need an initializer run {@link CallSpec#initializer()} once before their first task.
   *
   * @param spec what the call is
   * @return the call, which the core closes
   */
  BackendCall startCall(CallSpec spec);

  /** Releases every worker. Idempotent. A call still running is cancelled. */
  @Override
  void close();
}
