package io.joblib4j.spi;

import io.joblib4j.Delayed;
import java.io.Serializable;
import java.util.List;
import java.util.function.IntConsumer;
import org.apiguardian.api.API;

/**
 * A batch of tasks the core hands to a backend to run on one worker, in order. Batches are
 * serializable (when their tasks are) so that backends with separate JVMs can ship them.
 *
 * <p>On the worker, the backend calls {@link #run}: it runs the tasks under the nested-parallelism
 * rules (a {@code Parallel} inside a task runs on threads at the first level and sequentially
 * deeper, with the thread budget of the call), stops at the first failing task, and reports the
 * outcome. The backend never runs the tasks itself.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface Batch extends Serializable {

  /**
   * The call this batch belongs to ({@link CallSpec#callId()}).
   *
   * @return the call's id
   */
  String callId();

  /**
   * The batch's position in dispatch order, from 0.
   *
   * @return the index, from 0
   */
  int index();

  /**
   * The index, in the call's input, of this batch's first task: task {@code i} of the batch is task
   * {@code firstTask() + i} of the call, the number every message gives it (see {@link
   * #describeTask}). 0 for a batch that does not know its place in a call.
   *
   * @return the input index of the batch's first task, from 0
   */
  default long firstTask() {
    return 0;
  }

  /**
   * How many tasks the batch holds.
   *
   * @return the number of tasks
   */
  int size();

  /**
   * The tasks, in order. Backends read them to share large arguments; they never run them.
   *
   * @return the tasks, unmodifiable
   */
  List<Delayed<?>> tasks();

  /**
   * A readable description: the function and the tasks, by their indexes in the call's input.
   *
   * @return e.g. {@code "Scorer.score, tasks 16-23"}
   */
  String description();

  /**
   * How messages name one task of this batch: by its index in the call's input, counted from 0 (the
   * index of its result in the list {@code Parallel.run} returns), and the function it applies.
   *
   * @param i the task's position in this batch, from 0
   * @return e.g. {@code "task 17 of Scorer.score"}
   */
  default String describeTask(int i) {
    return "task " + (firstTask() + i) + " of " + description();
  }

  /**
   * Runs the tasks in the current thread and reports how it went. Never throws for a task's
   * failure: that is part of the outcome.
   *
   * @param worker a name for the worker, used in error messages ({@code "thread joblib4j-2"},
   *     {@code "process 4711"}, {@code "executor 3 on host-a"})
   * @param taskDone told the number of finished tasks of this batch after each one, for progress
   *     and timeouts; may be a no-op
   * @return the results, or the task that failed and its exception
   */
  BatchOutcome run(String worker, IntConsumer taskDone);
}
