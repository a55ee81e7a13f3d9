package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.testing.Captured;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParallelResultsTest {

  static Stream<Arguments> backendsJobsVerbosity() {
    List<Arguments> all = new ArrayList<>();
    for (String backend : List.of("sequential", "threads", "serializing")) {
      for (int nJobs : new int[] {1, 2, -1, -2}) {
        for (int verbose : new int[] {0, 2, 11, 100}) {
          all.add(Arguments.of(backend, nJobs, verbose));
        }
      }
    }
    return all.stream();
  }

  /** joblib's test_simple_parallel: results equal a sequential loop, in input order. */
  @ParameterizedTest(name = "{0} nJobs={1} verbose={2}")
  @MethodSource("backendsJobsVerbosity")
  void returnsTheSequentialResultsInInputOrder(String backend, int nJobs, int verbose) {
    List<Integer> expected = IntStream.range(0, 200).map(i -> i * i).boxed().collect(Collectors.toList());
    List<Integer>[] got = new List[1];
    Runnable body = () -> {
      try (Parallel p = Parallel.builder().backend(backend).nJobs(nJobs).verbose(verbose).build()) {
        got[0] = p.run(IntStream.range(0, 200).mapToObj(i -> delayed(ParallelResultsTest::squareSlowly, i)));
      }
    };
    if (verbose >= 50) {
      Captured.stdout(body);
    } else {
      Captured.stderr(body);
    }
    assertThat(got[0]).isEqualTo(expected);
  }

  static int squareSlowly(int i) throws InterruptedException {
    if (i % 17 == 0) {
      Thread.sleep(2); // uneven task times make out-of-order completion likely
    }
    return i * i;
  }

  @Test
  void iterateStreamsResultsInInputOrderWhileLaterTasksStillRun() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build();
        ResultIterator<Integer> it = p.iterate(IntStream.range(0, 6).mapToObj(i -> delayed(() -> {
          if (i == 5) {
            release.await(10, TimeUnit.SECONDS); // the last task waits until the first results are read
          }
          return i;
        })))) {
      List<Integer> firstFive = new ArrayList<>();
      for (int k = 0; k < 5; k++) {
        firstFive.add(it.next());
      }
      assertThat(firstFive).containsExactly(0, 1, 2, 3, 4);
      release.countDown();
      assertThat(it.next()).isEqualTo(5);
      assertThat(it.hasNext()).isFalse();
    }
  }

  /** joblib's test_parallel_unordered_generator_returns_fastest_first. */
  @Test
  void iterateUnorderedYieldsFastTasksBeforeASlowOne() {
    CountDownLatch othersDone = new CountDownLatch(9);
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build()) {
      ResultIterator<Integer> it = p.iterateUnordered(IntStream.range(0, 10).mapToObj(i -> delayed(() -> {
        if (i == 0) {
          othersDone.await(); // the slow task: it ends after every other one
        } else {
          othersDone.countDown();
        }
        return i;
      })));
      List<Integer> order = new ArrayList<>();
      it.forEachRemaining(order::add);
      assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
      assertThat(order.get(0)).isNotEqualTo(0);
      assertThat(order.indexOf(0)).isGreaterThan(3);
    }
  }

  @Test
  void mapAppliesTheFunctionToEveryInputInOrder() {
    try (Parallel p = Parallel.nJobs(2)) {
      assertThat(p.map(String::length, List.of("a", "bb", "ccc"))).containsExactly(1, 2, 3);
      assertThat(p.map((Integer x) -> x * 10, Stream.of(1, 2, 3))).containsExactly(10, 20, 30);
    }
  }

  /** joblib's test_parallel_with_exhausted_iterator. */
  @Test
  void anEmptyInputGivesAnEmptyListOnEveryBackend() {
    for (String backend : List.of("sequential", "threads", "serializing")) {
      try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
        List<Integer> none = p.run(Stream.<Delayed<Integer>>empty());
        assertThat(none).isEmpty();
        Iterator<Integer> it = p.iterate(List.<Delayed<Integer>>of());
        assertThat(it.hasNext()).isFalse();
      }
    }
  }

  @Test
  void nullResultsAreDelivered() {
    List<Object> results = Parallel.nJobs(2).run(Stream.of(delayed(() -> null), delayed(() -> "x")));
    assertThat(results).containsExactly(null, "x");
  }

  @Test
  void acceptsAnyIterableOfTasks() {
    List<Delayed<String>> tasks = List.of(delayed(String::toUpperCase, "a"), delayed(String::concat, "b", "c"));
    assertThat(Parallel.nJobs(2).run(tasks)).containsExactly("A", "bc");
  }

  @Test
  void tasksOfEveryArityRun() {
    List<Object> r = Parallel.nJobs(2).run(Stream.of(
        delayed(() -> 0),
        delayed((Integer a) -> a, 1),
        delayed((Integer a, Integer b) -> a + b, 1, 1),
        delayed((Integer a, Integer b, Integer c) -> a + b + c, 1, 1, 1),
        delayed((Integer a, Integer b, Integer c, Integer d) -> a + b + c + d, 1, 1, 1, 1),
        delayed((Integer a, Integer b, Integer c, Integer d, Integer e) -> a + b + c + d + e, 1, 1, 1, 1, 1),
        delayed((Integer a, Integer b, Integer c, Integer d, Integer e, Integer f) -> a + b + c + d + e + f,
            1, 1, 1, 1, 1, 1)));
    assertThat(r).containsExactly(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void threadsRunTasksConcurrently() throws Exception {
    CountDownLatch bothRunning = new CountDownLatch(2);
    List<Boolean> met = Parallel.builder().nJobs(2).batchSize(1).build().run(Stream.of(0, 1).map(i -> delayed(() -> {
      bothRunning.countDown();
      return bothRunning.await(10, TimeUnit.SECONDS);
    })));
    assertThat(met).containsExactly(true, true);
  }
}
