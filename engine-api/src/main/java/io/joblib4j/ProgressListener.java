package io.joblib4j;

import org.apiguardian.api.API;

/**
 * Told how a {@code Parallel} call progresses: {@code verbose} lines, the console progress bar and
 * the Spark UI integration are all listeners. Register one with {@code
 * Parallel.builder().progress(listener)} or {@code ParallelConfig.builder().progress(listener)}.
 *
 * <p>Methods are called from the caller's thread and from workers' completion threads, never
 * concurrently for one call. They must return quickly and should not throw (an exception is
 * logged and ignored).
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface ProgressListener {

  /**
   * The call started on {@code backend} with {@code nJobs} workers.
   *
   * @param call the call
   */
  default void started(CallInfo call) {}

  /**
   * Tasks were dispatched or finished; {@code progress} is a snapshot.
   *
   * @param call the call
   * @param progress the tasks done so far
   */
  default void progressed(CallInfo call, Progress progress) {}

  /**
   * The call ended: all results delivered, or {@code failure} (null on success).
   *
   * @param call the call
   * @param progress the tasks done in the end
   * @param failure why the call failed, or null if it succeeded
   */
  default void finished(CallInfo call, Progress progress, Throwable failure) {}

  /**
   * What a listener is told about a call.
   *
   * @param callId unique per call
   * @param backend the backend's name
   * @param nJobs the effective number of workers
   * @param description the function the call applies ({@code Scorer.score}), or {@code "tasks"}
   * @param verbose the verbosity the user asked for
   */
  @API(status = API.Status.STABLE, since = "0.1")
  record CallInfo(String callId, String backend, int nJobs, String description, int verbose) {}

  /**
   * A snapshot of a call's progress.
   *
   * @param completedTasks tasks whose results are in
   * @param dispatchedTasks tasks handed to workers so far
   * @param totalTasks the number of tasks if known (sized input, or after the input is
   *     exhausted), else -1
   * @param dispatchedBatches batches handed to workers so far
   * @param dispatchFinished the input iterator is exhausted
   * @param elapsedNanos time since the call started
   */
  @API(status = API.Status.STABLE, since = "0.1")
  record Progress(
      long completedTasks,
      long dispatchedTasks,
      long totalTasks,
      long dispatchedBatches,
      boolean dispatchFinished,
      long elapsedNanos) {

    /**
     * Whether every task finished.
     *
     * @return whether every task is done
     */
    public boolean complete() {
      return dispatchFinished && completedTasks == dispatchedTasks;
    }
  }
}
