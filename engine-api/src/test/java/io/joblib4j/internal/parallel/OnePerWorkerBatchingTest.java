package io.joblib4j.internal.parallel;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Delayed;
import io.joblib4j.Parallel;
import io.joblib4j.ResultIterator;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchSubmission;
import io.joblib4j.spi.Batching;
import io.joblib4j.spi.CallSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A backend's {@link Batching} hint: {@code ONE_PER_WORKER} cuts an input of known size into one
 * batch per worker, all sent when the call starts, unless the user set a batch size or a
 * pre-dispatch; {@code ADAPTIVE} (every backend's default) keeps joblib's rule.
 */
class OnePerWorkerBatchingTest {
  /**
   * Two workers; holds every batch it is given until {@link #release}, so the test sees what was
   * sent before any ended; after that it runs each batch at once, in the submitting thread.
   */
  static final class HoldingBackend implements Backend {
    final Batching hint;
    final List<Batch> sent = new ArrayList<>();
    final List<BatchListener> listeners = new ArrayList<>();
    final List<Integer> allSizes = new ArrayList<>();
    /** The number of batches each {@code submitAll} brought, in order. */
    final List<Integer> together = new ArrayList<>();
    private boolean released;

    HoldingBackend(Batching hint) {
      this.hint = hint;
    }

    @Override
    public String name() {
      return "holding";
    }

    @Override
    public BackendTraits traits() {
      return new BackendTraits(false, false, true, false, 2);
    }

    @Override
    public int capacity() {
      return 2;
    }

    @Override
    public Batching batching() {
      return hint;
    }

    @Override
    public BackendCall startCall(CallSpec spec) {
      return new BackendCall() {
        @Override
        public void submit(Batch batch, BatchListener listener) {
          synchronized (HoldingBackend.this) {
            allSizes.add(batch.size());
            if (!released) {
              sent.add(batch);
              listeners.add(listener);
              return;
            }
          }
          run(batch, listener);
        }

        @Override
        public void submitAll(List<BatchSubmission> batches) {
          synchronized (HoldingBackend.this) {
            together.add(batches.size());
          }
          BackendCall.super.submitAll(batches);
        }

        @Override
        public void cancel() {}

        @Override
        public void close() {}
      };
    }

    /** Runs the batches held so far, and every later one as it comes. */
    void release() {
      List<Batch> batches;
      List<BatchListener> ls;
      synchronized (this) {
        released = true;
        batches = new ArrayList<>(sent);
        ls = new ArrayList<>(listeners);
      }
      for (int i = 0; i < batches.size(); i++) {
        run(batches.get(i), ls.get(i));
      }
    }

    private static void run(Batch batch, BatchListener listener) {
      listener.started();
      listener.completed(batch.run("here", n -> {}));
    }

    synchronized List<Integer> sizes() {
      return sent.stream().map(Batch::size).toList();
    }

    @Override
    public void close() {}
  }

  static List<Delayed<Integer>> tasks(int n) {
    return IntStream.range(0, n).mapToObj(i -> delayed((Integer x) -> x + 1, i)).toList();
  }

  @Test
  void aKnownInputIsCutIntoOneBatchPerWorkerAllSentAtOnce() {
    HoldingBackend backend = new HoldingBackend(Batching.ONE_PER_WORKER);
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build();
         ResultIterator<Integer> it = p.iterateUnordered(tasks(65))) {
      assertThat(backend.sizes()).as("sent before any batch ended").containsExactly(33, 32);
      backend.release();
      List<Integer> out = new ArrayList<>();
      it.forEachRemaining(out::add);
      assertThat(out).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 65).boxed().toList());
    }
  }

  @Test
  void theBatchesCutOnePerWorkerReachTheBackendInOneSubmitAll() {
    HoldingBackend backend = new HoldingBackend(Batching.ONE_PER_WORKER);
    backend.release();
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      assertThat(p.map((Integer x) -> x * 2, IntStream.range(0, 64).boxed().toList())).hasSize(64);
      assertThat(p.map((Integer x) -> x * 2, List.of(1))).as("one batch: submitted alone").containsExactly(2);
    }
    HoldingBackend adaptive = new HoldingBackend(Batching.ADAPTIVE);
    adaptive.release();
    try (Parallel p = Parallel.builder().backend(adaptive).nJobs(2).build()) {
      assertThat(p.map((Integer x) -> x * 2, IntStream.range(0, 64).boxed().toList())).hasSize(64);
    }
    synchronized (backend) {
      assertThat(backend.together).containsExactly(2);
      assertThat(backend.allSizes).containsExactly(32, 32, 1);
    }
    synchronized (adaptive) {
      assertThat(adaptive.together).as("joblib's rule sends batch by batch").isEmpty();
    }
  }

  @Test
  void mapOverACollectionKnowsItsSize() {
    HoldingBackend backend = new HoldingBackend(Batching.ONE_PER_WORKER);
    backend.release();
    try (Parallel p = Parallel.builder().backend(backend).nJobs(2).build()) {
      assertThat(p.map((Integer x) -> x * 2, IntStream.range(0, 64).boxed().toList())).hasSize(64);
    }
    synchronized (backend) {
      assertThat(backend.allSizes).containsExactly(32, 32);
    }
  }

  @Test
  void whatTheUserSetsWinsOverTheHint() {
    HoldingBackend sized = new HoldingBackend(Batching.ONE_PER_WORKER);
    try (Parallel p = Parallel.builder().backend(sized).nJobs(2).batchSize(4).build();
         ResultIterator<Integer> it = p.iterateUnordered(tasks(64))) {
      assertThat(sized.sizes()).as("joblib's rule: preDispatch 2*n_jobs tasks of batchSize 4").containsExactly(2);
      drain(sized, it);
    }
    HoldingBackend dispatched = new HoldingBackend(Batching.ONE_PER_WORKER);
    try (Parallel p = Parallel.builder().backend(dispatched).nJobs(2).preDispatch("all").build();
         ResultIterator<Integer> it = p.iterateUnordered(tasks(64))) {
      assertThat(dispatched.sizes()).as("adaptive batches start at one task").allMatch(s -> s == 1);
      drain(dispatched, it);
    }
  }

  @Test
  void anInputOfUnknownSizeAndTheDefaultHintBatchAdaptively() {
    HoldingBackend unknown = new HoldingBackend(Batching.ONE_PER_WORKER);
    try (Parallel p = Parallel.builder().backend(unknown).nJobs(2).build();
         ResultIterator<Integer> it = p.iterateUnordered(Stream.iterate(0, i -> i < 64, i -> i + 1)
             .map(i -> delayed((Integer x) -> x + 1, i)))) {
      assertThat(unknown.sizes()).as("joblib's first batches: one task each").containsExactly(1, 1, 1);
      drain(unknown, it);
    }
    HoldingBackend adaptive = new HoldingBackend(Batching.ADAPTIVE);
    try (Parallel p = Parallel.builder().backend(adaptive).nJobs(2).build();
         ResultIterator<Integer> it = p.iterateUnordered(tasks(64))) {
      assertThat(adaptive.sizes()).containsExactly(1, 1, 1);
      drain(adaptive, it);
    }
  }

  /** Lets every batch run and reads every result. */
  private static void drain(HoldingBackend backend, ResultIterator<Integer> it) {
    backend.release();
    List<Integer> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    assertThat(out).hasSize(64);
  }
}
