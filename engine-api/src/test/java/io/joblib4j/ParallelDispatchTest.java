package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.testing.SerializingBackend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ParallelDispatchTest {

  /** joblib's test_dispatch_one_job: with one job, producing and consuming interleave per batch. */
  @Test
  void oneJobInterleavesProducerAndConsumerPerBatch() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Stream<Delayed<Integer>> tasks = IntStream.range(0, 6).mapToObj(i -> {
      events.add("P" + i);
      return delayed(() -> {
        events.add("C" + i);
        return i;
      });
    });
    Parallel.builder().nJobs(1).batchSize(1).build().run(tasks);
    assertThat(events).containsExactly("P0", "C0", "P1", "C1", "P2", "C2", "P3", "C3", "P4", "C4", "P5", "C5");

    events.clear();
    Parallel.builder().nJobs(1).batchSize(4).build().run(IntStream.range(0, 6).mapToObj(i -> {
      events.add("P" + i);
      return delayed(() -> {
        events.add("C" + i);
        return i;
      });
    }));
    assertThat(events).containsExactly("P0", "P1", "P2", "P3", "C0", "C1", "C2", "C3", "P4", "P5", "C4", "C5");
  }

  @Test
  void sequentialIterateRunsNothingUntilResultsAreRead() {
    AtomicInteger ran = new AtomicInteger();
    try (Parallel p = Parallel.nJobs(1)) {
      ResultIterator<Integer> it = p.iterate(IntStream.range(0, 3).mapToObj(i -> delayed(() -> ran.incrementAndGet())));
      assertThat(ran.get()).isZero();
      it.next();
      assertThat(ran.get()).isEqualTo(1);
      it.close();
    }
  }

  /** joblib's test_dispatch_multiprocessing: preDispatch=3 takes 3 inputs before any result. */
  @Test
  void preDispatchBoundsHowManyInputsAreTakenBeforeResultsComeBack() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger produced = new AtomicInteger();
    CountDownLatch running = new CountDownLatch(2);
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).preDispatch(3).build()) {
      ResultIterator<Integer> it = p.iterate(IntStream.range(0, 10).mapToObj(i -> {
        produced.incrementAndGet();
        return delayed(() -> {
          running.countDown();
          release.await(10, TimeUnit.SECONDS);
          return i;
        });
      }));
      ParallelErrorsTest.await(running); // both workers hold a task; none can finish before release
      assertThat(produced.get()).isEqualTo(3);
      release.countDown();
      List<Integer> all = new ArrayList<>();
      it.forEachRemaining(all::add);
      assertThat(all).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
      assertThat(produced.get()).isEqualTo(10);
    }
  }

  @Test
  void preDispatchDefaultsToTwiceTheJobs() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger produced = new AtomicInteger();
    CountDownLatch running = new CountDownLatch(3);
    try (Parallel p = Parallel.builder().nJobs(3).batchSize(1).build()) {
      ResultIterator<Integer> it = p.iterate(IntStream.range(0, 20).mapToObj(i -> {
        produced.incrementAndGet();
        return delayed(() -> {
          running.countDown();
          release.await(10, TimeUnit.SECONDS);
          return i;
        });
      }));
      ParallelErrorsTest.await(running); // every worker holds a task; none can finish before release
      assertThat(produced.get()).isEqualTo(6);
      release.countDown();
      it.forEachRemaining(x -> {});
    }
  }

  @Test
  void preDispatchAllTakesTheWholeInputAtOnce() {
    SerializingBackend backend = new SerializingBackend();
    Parallel.builder().backend(backend).nJobs(2).batchSize(1).preDispatch("all").build()
        .run(IntStream.range(0, 50).mapToObj(i -> delayed(() -> i)));
    assertThat(backend.batchSizes).hasSize(50);
    backend.close();
  }

  @Test
  void aFixedBatchSizeIsUsedExceptNearTheEndOfTheInput() {
    SerializingBackend backend = new SerializingBackend();
    Parallel.builder().backend(backend).nJobs(2).batchSize(8).build()
        .run(IntStream.range(0, 200).mapToObj(i -> delayed(() -> i)));
    List<Integer> sizes = backend.batchSizes;
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(200);
    // joblib: the pre-dispatched 2*nJobs tasks are split over the jobs, then batches are full
    assertThat(sizes.subList(0, 2)).containsOnly(2);
    assertThat(sizes.subList(2, 12)).containsOnly(8);
    assertThat(sizes).allMatch(s -> s <= 8);
    backend.close();
  }

  /** joblib's test_batching_auto_*: tiny tasks make batches grow, doubling at most per step. */
  @Test
  void autoBatchingGrowsBatchesOfTinyTasks() {
    SerializingBackend backend = new SerializingBackend();
    Parallel.builder().backend(backend).nJobs(2).build()
        .run(IntStream.range(0, 5_000).mapToObj(i -> delayed(() -> i)));
    List<Integer> sizes = backend.batchSizes;
    assertThat(sizes.get(0)).isEqualTo(1);
    assertThat(sizes.stream().mapToInt(Integer::intValue).max().getAsInt()).isGreaterThanOrEqualTo(64);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(5_000);
    backend.close();
  }

  /** joblib's test_backend_batch_statistics_reset: each call starts from batch size 1 again. */
  @Test
  void autoBatchingStatisticsResetForEveryCall() {
    SerializingBackend backend = new SerializingBackend();
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      p.run(IntStream.range(0, 2_000).mapToObj(i -> delayed(() -> i)));
      int endOfFirst = backend.batchSizes.size();
      p.run(IntStream.range(0, 2_000).mapToObj(i -> delayed(() -> i)));
      assertThat(backend.batchSizes.get(endOfFirst)).isEqualTo(1);
    }
    backend.close();
  }

  @Test
  void slowTasksKeepBatchesSmall() {
    SerializingBackend backend = new SerializingBackend();
    Parallel.builder().backend(backend).nJobs(2).build()
        .run(IntStream.range(0, 12).mapToObj(i -> delayed(() -> {
          Thread.sleep(250); // above joblib's 0.2 s ideal minimum: no reason to grow
          return i;
        })));
    assertThat(backend.batchSizes).containsOnly(1);
    backend.close();
  }

  @Test
  void rejectsInvalidBatchSizesAndPreDispatch() {
    assertThatThrownBy(() -> Parallel.builder().batchSize(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
    assertThatThrownBy(() -> Parallel.builder().batchSize(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Parallel.builder().batchSize("1.42")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"auto\"");
    assertThatThrownBy(() -> Parallel.builder().preDispatch("__import__('os')"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid preDispatch");
    assertThatThrownBy(() -> Parallel.builder().preDispatch(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
