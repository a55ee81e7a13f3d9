package io.joblib4j.internal.parallel;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A caller reading {@code iterate()} slower than the workers run: dispatch pauses once a bounded
 * number of finished batches wait, and resumes as the caller reads, so the caller's heap holds a
 * bounded number of tasks and results however long the input is.
 *
 * <p>Each test waits a second for something that must not happen (the whole input being taken):
 * without back-pressure two workers take 400,000 tiny tasks in well under that.
 */
class BackPressureTest {
  private static final long TASKS = 400_000;
  /** Tasks taken beyond what the caller read: batches running, split off, and waiting, all at the cap. */
  private static final long BOUND = (long) (3 * 2 + 1 + 2 * BatchLimits.WAITING_BATCHES_PER_JOB)
      * BatchLimits.MAX_BATCH_TASKS;

  static long plusOne(long x) {
    return x + 1;
  }

  /** The input, counting the tasks taken from it. */
  private static Stream<Delayed<Long>> counted(AtomicLong taken, CountDownLatch allTaken) {
    return LongStream.range(0, TASKS).mapToObj(i -> {
      if (taken.incrementAndGet() == TASKS) {
        allTaken.countDown();
      }
      return delayed(BackPressureTest::plusOne, i);
    });
  }

  @Test
  void aCallerThatStopsReadingStopsTheDispatch() throws Exception {
    AtomicLong taken = new AtomicLong();
    CountDownLatch allTaken = new CountDownLatch(1);
    try (Parallel p = Parallel.nJobs(2);
         ResultIterator<Long> it = p.iterateUnordered(counted(taken, allTaken))) {
      assertThat(it.next()).isPositive();
      assertThat(allTaken.await(1, TimeUnit.SECONDS)).as("the whole input was taken").isFalse();
      assertThat(taken.get()).as("tasks taken while the caller read one").isLessThan(BOUND);
      long count = 1;
      long mostAhead = 0;
      while (it.hasNext()) {
        it.next();
        count++;
        mostAhead = Math.max(mostAhead, taken.get() - count);
      }
      assertThat(count).isEqualTo(TASKS);
      assertThat(mostAhead).as("tasks taken and not yet read, at most").isLessThan(BOUND);
    }
  }

  @Test
  void aSlowFirstTaskHoldsBackTheRestInInputOrder() throws Exception {
    AtomicLong taken = new AtomicLong();
    CountDownLatch allTaken = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Stream<Delayed<Long>> tasks = Stream.concat(
        Stream.of(delayed(() -> {
          release.await();
          return 0L;
        })),
        counted(taken, allTaken).skip(1));
    try (Parallel p = Parallel.nJobs(2); ResultIterator<Long> it = p.iterate(tasks)) {
      // in input order nothing can be read while the first task runs: the rest must not pile up
      assertThat(allTaken.await(1, TimeUnit.SECONDS)).as("the whole input was taken").isFalse();
      assertThat(taken.get()).isLessThan(BOUND);
      release.countDown();
      assertThat(it.next()).isZero();
      long expected = 2;
      while (it.hasNext() && it.next() == expected) {
        expected++;
      }
      assertThat(expected).as("every result, in input order").isEqualTo(TASKS + 1);
    }
  }

  @Test
  void fixedBatchSizesPauseToo() throws Exception {
    AtomicLong taken = new AtomicLong();
    CountDownLatch allTaken = new CountDownLatch(1);
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(100).build();
         ResultIterator<Long> it = p.iterate(counted(taken, allTaken))) {
      assertThat(it.next()).isEqualTo(1L);
      assertThat(allTaken.await(1, TimeUnit.SECONDS)).as("the whole input was taken").isFalse();
      assertThat(taken.get()).isLessThan(BOUND);
      long n = 1;
      while (it.hasNext()) {
        it.next();
        n++;
      }
      assertThat(n).isEqualTo(TASKS);
    }
  }
}
