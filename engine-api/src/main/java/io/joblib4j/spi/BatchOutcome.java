package io.joblib4j.spi;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The outcome of running a {@link Batch}: the results of every task, or the first task that failed
 * and its exception (the tasks after it did not run).
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class BatchOutcome implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The results of every task, or null for a failure. */
  private final Object[] results;
  /** The position in the batch of the task that failed, or -1. */
  private final int failedTask;
  /** What it threw, or null. */
  private final Throwable failure;
  /** Where the batch ran. */
  private final String worker;

  private BatchOutcome(Object[] results, int failedTask, Throwable failure, String worker) {
    this.results = results;
    this.failedTask = failedTask;
    this.failure = failure;
    this.worker = worker;
  }

  /**
   * Every task succeeded; {@code results[i]} is task {@code i}'s result.
   *
   * @param results one result per task, in order
   * @param worker where the batch ran
   * @return the outcome
   */
  public static BatchOutcome success(Object[] results, String worker) {
    return new BatchOutcome(Objects.requireNonNull(results, "results"), -1, null, worker);
  }

  /**
   * Task {@code failedTask} (0-based within the batch) threw {@code failure}.
   *
   * @param failedTask the failed task's position in the batch, from 0
   * @param failure what it threw
   * @param worker where the batch ran
   * @return the outcome
   */
  public static BatchOutcome failure(int failedTask, Throwable failure, String worker) {
    if (failedTask < 0) {
      throw new IllegalArgumentException("failedTask must be >= 0");
    }
    return new BatchOutcome(null, failedTask, Objects.requireNonNull(failure, "failure"), worker);
  }

  /**
   * Whether every task succeeded.
   *
   * @return whether every task succeeded
   */
  public boolean succeeded() {
    return failure == null;
  }

  /**
   * The results in task order; only when {@link #succeeded()}.
   *
   * @return the results
   */
  public Object[] results() {
    if (results == null) {
      throw new IllegalStateException("the batch failed at task " + failedTask, failure);
    }
    return results;
  }

  /**
   * The index within the batch of the task that failed, or -1.
   *
   * @return the position, from 0
   */
  public int failedTask() {
    return failedTask;
  }

  /**
   * The failing task's exception, or {@code null}.
   *
   * @return the exception
   */
  public Throwable failure() {
    return failure;
  }

  /**
   * The worker that ran the batch, for error messages.
   *
   * @return the worker's name
   */
  public String worker() {
    return worker;
  }

  /**
   * The same outcome, reported as coming from {@code worker} (a remote backend names its JVM).
   *
   * @param worker the worker's name
   * @return this outcome, naming that worker
   */
  public BatchOutcome ranOn(String worker) {
    return new BatchOutcome(results, failedTask, failure, worker);
  }
}
