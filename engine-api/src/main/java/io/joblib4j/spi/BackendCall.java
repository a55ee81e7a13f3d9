package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * One {@code Parallel} call on a backend. The core submits batches, possibly from several threads
 * (completion callbacks dispatch the next batch), and closes the call when it is over.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface BackendCall extends AutoCloseable {

  /**
   * Schedules {@code batch} to run on a worker. The backend calls {@code listener.started()} when
   * a worker begins it, then exactly one of {@code completed} or {@code failed} — unless the call
   * was cancelled first, in which case it may stay silent. It must not block for the batch to
   * run.
   *
   * @param batch the batch to run
   * @param listener told how it went
   */
  void submit(Batch batch, BatchListener listener);

  /**
   * Stops the call promptly: drops batches not yet started and interrupts or kills the ones
   * running. The core has already decided the call's outcome (an error, a timeout, the caller gave
   * up), so nothing more needs to be reported. Must return quickly and may be called more than
   * once.
   */
  void cancel();

  /** Ends the call, after it completed or was cancelled; workers stay for the next call. */
  @Override
  void close();
}
