package io.joblib4j.internal.parallel;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * How a batch names itself and its tasks in messages (a worker that died while running it, a lost
 * executor, a task that failed): by the tasks' indexes in the call's input, from 0, never by a
 * batch number or a position in the batch.
 */
class TaskBatchTest {

  private static TaskBatch batch(long firstTask, int size) {
    List<Delayed<?>> tasks = IntStream.range(0, size).<Delayed<?>>mapToObj(i -> delayed(() -> i)).toList();
    return new TaskBatch("call", 2, firstTask, tasks, "Scorer.score", 1, 1);
  }

  @Test
  void aBatchIsDescribedByTheInputIndexesOfItsTasks() {
    assertThat(batch(16, 8).description()).isEqualTo("Scorer.score, tasks 16-23");
    assertThat(batch(7, 1).description()).isEqualTo("Scorer.score, task 7");
    assertThat(batch(16, 8)).hasToString("Batch[Scorer.score, tasks 16-23]");
  }

  @Test
  void aTaskIsDescribedByItsIndexInTheInput() {
    TaskBatch b = batch(16, 8);
    assertThat(b.firstTask()).isEqualTo(16);
    assertThat(b.describeTask(0)).isEqualTo("task 16 of Scorer.score");
    assertThat(b.describeTask(7)).isEqualTo("task 23 of Scorer.score");
  }
}
