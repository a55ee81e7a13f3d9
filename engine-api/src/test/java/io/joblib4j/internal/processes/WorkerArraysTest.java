package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's copy of a kept array between calls: made equal to the file again unless every task
 * that held it was proven unable to write it. Each case writes into the copy behind the tasks' back
 * (what no proven task can do) to see whether the next call got a refresh.
 */
class WorkerArraysTest {
  @TempDir Path dir;

  @AfterEach
  void dropCopies() {
    WorkerArrays.releaseAll();
  }

  private SharedArrayRef keptRef(String call, Path file, int n) {
    return new SharedArrayRef(call, file.toString(), double.class, n,
        new SharedArrayRef.Kept(WorkerArrays.KEPT_PREFIX + file));
  }

  private Path keptFile(double[] content) throws Exception {
    Path file = dir.resolve("kept-" + content.length);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      SharedArrayFiles.write(content, ch);
    }
    return file;
  }

  /** Runs call {@code call}'s part here: the copy handed out, the batch announced, the call ended. */
  private double[] call(String call, Path file, Delayed<?> task) throws Exception {
    double[] copy = (double[]) WorkerArrays.get(keptRef(call, file, 4));
    WorkerArrays.beforeTasksRun(new OneTask(call, task));
    return copy;
  }

  @Test
  void aCallWhoseTasksOnlyReadIsNotFollowedByARefresh() throws Exception {
    Path file = keptFile(new double[] {1, 2, 3, 4});
    double[] copy = call("c1", file, delayed(WorkerArraysTest::first, new double[0]));
    copy[3] = -1; // behind the proof's back
    WorkerArrays.release("c1");
    assertThat(call("c2", file, delayed(WorkerArraysTest::first, new double[0]))).isSameAs(copy)
        .as("no refresh: the copy was proven unwritten").containsExactly(1, 2, 3, -1);
  }

  @Test
  void aCallWhoseTaskMayWriteIsFollowedByARefresh() throws Exception {
    Path file = keptFile(new double[] {1, 2, 3, 4});
    double[] copy = call("c1", file, delayed(WorkerArraysTest::zeroFirst, new double[0]));
    copy[0] = 0; // what the task would do
    WorkerArrays.release("c1");
    assertThat(call("c2", file, delayed(WorkerArraysTest::first, new double[0]))).containsExactly(1, 2, 3, 4);
  }

  @Test
  void aCopyAnUnprovenTaskHeldIsRefreshedAfterEveryLaterCall() throws Exception {
    Path file = keptFile(new double[] {1, 2, 3, 4});
    double[] copy = call("c1", file, delayed(a -> java.util.Arrays.stream(a).sum(), new double[0]));
    copy[1] = 7; // what the unproven task may do
    WorkerArrays.release("c1");
    for (String next : List.of("c2", "c3")) {
      assertThat(call(next, file, delayed(WorkerArraysTest::first, new double[0]))).containsExactly(1, 2, 3, 4);
      copy[1] = 7; // during a proven call: as a thread the unproven task left behind could
      WorkerArrays.release(next);
    }
    assertThat(call("c4", file, delayed(WorkerArraysTest::first, new double[0]))).containsExactly(1, 2, 3, 4);
  }

  @Test
  void aTaskOfTheSameCallSeesWhatAnEarlierOneWrote() throws Exception {
    Path file = keptFile(new double[] {1, 2, 3, 4});
    double[] copy = call("c1", file, delayed(WorkerArraysTest::zeroFirst, new double[0]));
    copy[0] = 0;
    assertThat(call("c1", file, delayed(WorkerArraysTest::first, new double[0]))).as("one call shares one copy")
        .containsExactly(0, 2, 3, 4);
  }

  static double first(double[] a) {
    return a[0];
  }

  static double zeroFirst(double[] a) {
    a[0] = 0;
    return 0;
  }

  /** A batch of one task, as the worker loop hands it over. */
  private record OneTask(String callId, Delayed<?> task) implements Batch {
    @Override
    public int index() {
      return 0;
    }

    @Override
    public int size() {
      return 1;
    }

    @Override
    public List<Delayed<?>> tasks() {
      return List.of(task);
    }

    @Override
    public String description() {
      return "one task";
    }

    @Override
    public BatchOutcome run(String worker, IntConsumer taskDone) {
      throw new UnsupportedOperationException("not run here");
    }
  }
}
