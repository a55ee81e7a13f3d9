package io.joblib4j;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ParallelErrorsTest {

  /** An exception whose constructor takes more than a message (joblib's test_error_capture). */
  static final class ScoringFailed extends Exception {
    final int fold;

    ScoringFailed(int fold, Throwable cause) {
      super("fold " + fold + " failed", cause);
      this.fold = fold;
    }
  }

  static int score(int fold) throws ScoringFailed {
    if (fold == 3) {
      throw new ScoringFailed(fold, new IOException("disk on fire"));
    }
    return fold;
  }

  @ParameterizedTest
  @ValueSource(strings = {"sequential", "threads", "serializing"})
  void rethrowsTheTasksOwnExceptionWithMessageAndCause(String backend) {
    Throwable thrown = catchThrowable(() -> Parallel.builder().backend(backend).nJobs(2).build()
        .run(IntStream.range(0, 10).mapToObj(i -> delayed(ParallelErrorsTest::score, i))));
    assertThat(thrown).isInstanceOf(ScoringFailed.class).hasMessage("fold 3 failed");
    assertThat(((ScoringFailed) thrown).fold).isEqualTo(3);
    assertThat(thrown.getCause()).isInstanceOf(IOException.class).hasMessage("disk on fire");
    // the worker's side of the stack: where the task threw
    assertThat(thrown.getStackTrace()[0].getMethodName()).isEqualTo("score");
  }

  @ParameterizedTest
  @ValueSource(strings = {"threads", "serializing"})
  void saysWhichTaskFailedWhereInASuppressedNoteWithTheCallersStack(String backend) {
    Throwable thrown = catchThrowable(() -> Parallel.builder().backend(backend).nJobs(2).batchSize(1).build()
        .run(IntStream.range(0, 10).mapToObj(i -> delayed(ParallelErrorsTest::score, i))));
    assertThat(thrown.getSuppressed()).hasSize(1);
    Throwable note = thrown.getSuppressed()[0];
    assertThat(note.getMessage()).contains("task 3").contains("ParallelErrorsTest.score").contains("failed on");
    assertThat(Arrays.stream(note.getStackTrace()).map(StackTraceElement::getMethodName))
        .contains("saysWhichTaskFailedWhereInASuppressedNoteWithTheCallersStack");
  }

  @Test
  void uncheckedExceptionsAndErrorsKeepTheirType() {
    assertThatThrownBy(() -> Parallel.nJobs(2).run(Stream.of(delayed(() -> {
      throw new IllegalStateException("bad state");
    })))).isInstanceOf(IllegalStateException.class).hasMessage("bad state");
    assertThatThrownBy(() -> Parallel.nJobs(2).run(Stream.of(delayed(() -> {
      throw new AssertionError("broken invariant");
    })))).isInstanceOf(AssertionError.class).hasMessage("broken invariant");
  }

  /** joblib's test_abort_backend: one failing task, 100 slow ones; the call returns at once. */
  @Test
  void cancelsTheRemainingTasksOnFirstError() {
    CountDownLatch otherSleeps = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    AtomicInteger sleptToTheEnd = new AtomicInteger();
    Throwable thrown = catchThrowable(() -> Parallel.nJobs(2).run(IntStream.range(0, 101).mapToObj(i -> delayed(() -> {
      started.incrementAndGet();
      if (i == 0) {
        otherSleeps.await(); // the other worker is in its long task
        throw new IllegalArgumentException("first task fails");
      }
      otherSleeps.countDown();
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
        throw e;
      }
      sleptToTheEnd.incrementAndGet();
      return i;
    }))));
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessage("first task fails");
    // 100 tasks of 10 s on 2 workers would take 500 s: the call returned before even one ended
    assertThat(sleptToTheEnd.get()).isZero();
    assertThat(started.get()).isLessThan(10);
    await(interrupted);
  }

  @Test
  void aTaskThatIgnoresInterruptsDoesNotHoldUpTheCallOrTheNextOne() throws Exception {
    CountDownLatch stubbornRuns = new CountDownLatch(1);
    CountDownLatch stubborn = new CountDownLatch(1);
    try (Parallel p = Parallel.builder().nJobs(2).batchSize(1).build()) {
      assertThatThrownBy(() -> p.run(IntStream.range(0, 4).mapToObj(i -> delayed(() -> {
        if (i == 0) {
          stubbornRuns.await();
          throw new IllegalStateException("boom");
        }
        stubbornRuns.countDown();
        // ignores interrupts until released
        while (!stubborn.await(50, TimeUnit.MILLISECONDS)) {
          Thread.interrupted();
        }
        return i;
      })))).isInstanceOf(IllegalStateException.class);
      // the stubborn worker was retired and replaced: the next call gets two live workers
      List<Integer> next = p.run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> i)));
      assertThat(next).hasSize(20);
    } finally {
      stubborn.countDown();
    }
  }

  /** joblib's test_error_capture / test_parallel_as_context_manager: the pool is usable again. */
  @ParameterizedTest
  @ValueSource(strings = {"threads", "serializing"})
  void staysUsableAfterAnErrorInTryWithResources(String backend) {
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      for (int round = 0; round < 3; round++) {
        assertThatThrownBy(() -> p.run(IntStream.range(0, 50).mapToObj(i -> delayed(ParallelErrorsTest::score, i))))
            .isInstanceOf(ScoringFailed.class);
        assertThat(p.run(IntStream.range(0, 50).mapToObj(i -> delayed(() -> i)))).hasSize(50);
      }
    }
  }

  /** joblib's test_error_in_task_iterator, while pre-dispatching. */
  @ParameterizedTest
  @ValueSource(strings = {"sequential", "threads"})
  void anExceptionFromTheInputDuringPreDispatchReachesTheCaller(String backend) {
    Iterator<Delayed<Integer>> broken = new Iterator<>() {
      int i;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public Delayed<Integer> next() {
        if (i == 2) {
          throw new IllegalStateException("input broke at 2");
        }
        int v = i++;
        return delayed(() -> v);
      }
    };
    Iterable<Delayed<Integer>> input = () -> broken;
    assertThatThrownBy(() -> Parallel.builder().backend(backend).nJobs(2).build().run(input))
        .isInstanceOf(IllegalStateException.class).hasMessage("input broke at 2");
  }

  /** joblib's test_error_in_task_iterator, later, in a completion thread. */
  @Test
  void anExceptionFromTheInputAfterPreDispatchReachesTheCaller() {
    Stream<Delayed<Integer>> input = IntStream.range(0, 100).mapToObj(i -> {
      if (i == 50) {
        throw new IllegalStateException("input broke at 50");
      }
      return delayed(() -> i);
    });
    assertThatThrownBy(() -> Parallel.builder().nJobs(2).batchSize(1).preDispatch(2).build().run(input))
        .isInstanceOf(IllegalStateException.class).hasMessage("input broke at 50");
  }

  @Test
  void aNonSerializableArgumentFailsClearlyOnABackendThatCrossesJvms() {
    Object notSerializable = new Object();
    Throwable thrown = catchThrowable(() -> Parallel.builder().backend("serializing").nJobs(2).build()
        .run(Stream.of(delayed((Object o) -> o.hashCode(), notSerializable))));
    assertThat(thrown).hasMessageContaining("cannot serialize");
  }

  @Test
  void interruptingTheCallerCancelsTheCall() throws Exception {
    CountDownLatch bothRunning = new CountDownLatch(2);
    CountDownLatch bothInterrupted = new CountDownLatch(2);
    Throwable[] thrown = new Throwable[1];
    boolean[] stillInterrupted = new boolean[1];
    Thread caller = new Thread(() -> {
      try {
        Parallel.nJobs(2).run(IntStream.range(0, 4).mapToObj(i -> delayed(() -> {
          bothRunning.countDown();
          try {
            Thread.sleep(20_000);
          } catch (InterruptedException e) {
            bothInterrupted.countDown();
            throw e;
          }
          return i;
        })));
      } catch (Throwable t) {
        thrown[0] = t;
        stillInterrupted[0] = Thread.currentThread().isInterrupted();
      }
    });
    caller.start();
    await(bothRunning);
    caller.interrupt();
    caller.join(5_000);
    assertThat(caller.isAlive()).isFalse();
    assertThat(thrown[0]).isInstanceOf(CancellationException.class).hasCauseInstanceOf(InterruptedException.class);
    assertThat(stillInterrupted[0]).as("the interrupt flag is restored").isTrue();
    await(bothInterrupted);
  }

  @Test
  void theFirstFailureWinsWhenSeveralTasksFail() {
    List<String> messages = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      Throwable t = catchThrowable(() -> Parallel.nJobs(2).run(IntStream.range(0, 20).mapToObj(i -> delayed(() -> {
        throw new IllegalStateException("task " + i);
      }))));
      assertThat(t).isInstanceOf(IllegalStateException.class);
      assertThat(t.getSuppressed()).hasSize(1);
      messages.add(t.getMessage());
    }
    assertThat(messages).allMatch(m -> m.startsWith("task "));
  }

  /** Waits for {@code latch}, failing the test after a generous while. */
  static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(30, TimeUnit.SECONDS)).as("latch released within 30 s").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
