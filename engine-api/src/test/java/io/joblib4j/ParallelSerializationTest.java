package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static io.joblib4j.testing.JavaSerialized.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Backends;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Parallel travels as its settings: in a Scala notebook a task's lambda captures its cell, and the
 * cell holds the Parallel that runs the task, so it is serialized with every task.
 */
@Timeout(60)
class ParallelSerializationTest {

  /** Not serializable on purpose: a listener holding the caller's console, say. */
  static final class ConsoleListener implements ProgressListener {}

  @Test
  void travelsAsItsSettingsAndRunsWhereItLands() {
    try (Parallel p = Parallel.builder().backend("threads").nJobs(2).verbose(0).batchSize(3)
        .timeout(Duration.ofMinutes(1)).progress(new ConsoleListener()).build()) {
      assertThat(p.run(List.of(delayed(() -> 1)))).containsExactly(1); // it owns workers now
      try (Parallel copy = roundTrip(p)) {
        assertThat(copy.toString()).isEqualTo(p.toString());
        assertThat(copy.effectiveNJobs()).isEqualTo(2);
        assertThat(copy.run(IntStream.range(0, 10).mapToObj(i -> delayed(() -> i * i))))
            .containsExactly(0, 1, 4, 9, 16, 25, 36, 49, 64, 81);
      }
    }
  }

  @Test
  void aBackendInstanceTravelsAsItsName() {
    Backend sequential = Backends.create("sequential", Map.of());
    try (Parallel p = Parallel.builder().backend(sequential).build(); Parallel copy = roundTrip(p)) {
      assertThat(copy.toString()).isEqualTo("Parallel(nJobs=default, backend=sequential)");
      assertThat(copy.run(List.of(delayed(() -> Thread.currentThread().getName()))))
          .containsExactly(Thread.currentThread().getName()); // sequential: the caller's thread
    } finally {
      sequential.close();
    }
  }

  @Test
  void aCopyOfAStreamingInstanceIsIdleAndTheOriginalStreamsOn() {
    try (Parallel p = Parallel.nJobs(2)) {
      ResultIterator<Integer> open = p.iterate(IntStream.range(0, 100).mapToObj(i -> delayed(() -> i)));
      try (Parallel copy = roundTrip(p)) {
        assertThat(copy.run(List.of(delayed(() -> 7)))).containsExactly(7);
      }
      int sum = 0;
      while (open.hasNext()) {
        sum += open.next();
      }
      assertThat(sum).isEqualTo(4950);
    }
  }

  /** What a notebook cell is: an object holding the cell's values, captured by the task's lambda. */
  static final class Cell implements Serializable {
    final Parallel parallel = Parallel.nJobs(2);
    final Memory memory = Memory.disabled();
    final int offset = 10;

    int shift(int x) {
      return x + offset;
    }
  }

  @Test
  void aTaskCapturingTheObjectThatHoldsItsParallelTravels() {
    Cell cell = new Cell();
    try (Parallel p = cell.parallel) {
      Delayed<Integer> task = delayed((Integer x) -> cell.shift(x), 5);
      Delayed<Integer> shipped = roundTrip(task);
      assertThat(p.run(List.of(shipped))).containsExactly(15);
    }
  }
}
