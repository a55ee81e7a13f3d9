package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * How a backend reports a batch back to the core. Thread-safe; may be called from any thread.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface BatchListener {

  /** A worker began running the batch; the task timeout clock starts now. */
  void started();

  /**
   * {@code tasksDone} tasks of the batch have finished (successfully); for progress and timeouts.
   * Backends whose traits say they report task progress call it after every task.
   *
   * @param tasksDone how many tasks of the batch finished so far
   */
  default void taskDone(int tasksDone) {}

  /**
   * The batch ran: every task succeeded, or one failed and the rest of the batch was skipped.
   *
   * @param outcome the outcome
   */
  void completed(BatchOutcome outcome);

  /**
   * The batch could not run or its outcome could not come back: the worker died, the batch could
   * not be serialized, the result was too large. The exception says which worker and why.
   *
   * @param infrastructureFailure what went wrong
   */
  void failed(Throwable infrastructureFailure);
}
