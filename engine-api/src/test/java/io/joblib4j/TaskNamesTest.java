package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The names and numbers users read: a memoized function is named as the function it wraps (the
 * name Memory prints), and a task by its index in the call's input, from 0. Every backend's
 * messages are checked by the backend contract ({@code BackendContractTest}); this is the core's side.
 */
class TaskNamesTest {
  @TempDir Path cache;

  static int square(int x) {
    return x * x;
  }

  static int failAt7(int i) throws IOException {
    if (i == 7) {
      throw new IOException("input 7 is unreadable");
    }
    return i;
  }

  @Test
  void aMemoizedFunctionIsNamedAsTheFunctionItWrapsAsMemoryNamesIt() {
    Memory memory = Memory.builder(cache).verbose(0).build();
    MemoizedFn1<Integer, Integer> squares = memory.cache(TaskNamesTest::square);
    assertThat(squares.function()).isEqualTo("TaskNamesTest.square");
    assertThat(delayed(squares, 3).functionName()).isEqualTo("TaskNamesTest.square");
    assertThat(delayed(memory.cache(squares), 3).functionName()).as("cache(cache(f))").isEqualTo("TaskNamesTest.square");
    assertThat(delayed(squares.ignore(0), 3).functionName()).as("with options").isEqualTo("TaskNamesTest.square");
    assertThat(delayed(Memory.disabled().cache(TaskNamesTest::square), 3).functionName()).as("caching disabled")
        .isEqualTo("TaskNamesTest.square");
  }

  @ParameterizedTest
  @ValueSource(strings = {"threads", "serializing"})
  void theProgressLabelAndTheFailureNoteNameAMemoizedFunctionAsItsFunctionAndTheTaskByItsInputIndex(String backend) {
    MemoizedFn1<Integer, Integer> memoized = Memory.builder(cache).verbose(0).build().cache(TaskNamesTest::failAt7);
    List<String> labels = new CopyOnWriteArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void started(CallInfo call) {
        labels.add(call.description()); // the progress bar's label and the Spark UI's job description
      }
    };
    Throwable failure;
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).batchSize(3).progress(listener).build()) {
      // batches of inputs 0-2, 3-5, 6-8, 9: input 7 is the second task of the third batch
      failure = catchThrowable(() -> p.run(IntStream.range(0, 10).mapToObj(i -> delayed(memoized, i))));
    }
    assertThat(labels).containsExactly("TaskNamesTest.failAt7");
    assertThat(failure).isInstanceOf(IOException.class).hasMessage("input 7 is unreadable");
    assertThat(Arrays.stream(failure.getSuppressed()).map(Throwable::getMessage))
        .anyMatch(m -> m.startsWith("joblib4j: task 7 of TaskNamesTest.failAt7 failed on "));
  }
}
