package io.joblib4j.spi;

import java.util.List;
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
   * Schedules batches the core has cut and sends together: under {@link Batching#ONE_PER_WORKER},
   * the whole input as one batch per worker. Each batch is reported to its own listener exactly as
   * if it had been submitted alone. A backend that pays a fixed cost per submission (a Spark
   * Connect operation: a plan to analyze and a job to schedule) may run them together; by default
   * each is {@linkplain #submit submitted} in turn. Must not block for the batches to run.
   *
   * @param batches the batches, in dispatch order
   */
  default void submitAll(List<BatchSubmission> batches) {
    for (BatchSubmission b : batches) {
      submit(b.batch(), b.listener());
    }
  }

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
