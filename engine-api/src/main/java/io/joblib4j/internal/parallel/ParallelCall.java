package io.joblib4j.internal.parallel;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.Delayed;
import io.joblib4j.ProgressListener.CallInfo;
import io.joblib4j.ProgressListener.Progress;
import io.joblib4j.internal.progress.ProgressTracker;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.BatchSubmission;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.Warnings;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@code Parallel} call on a backend: the scheduling core every backend shares.
 *
 * <p>It takes tasks from the caller's input lazily, {@code preDispatch} of them up front and one
 * batch more each time a batch completes (joblib's dispatch rule, run in whichever thread
 * completes a batch); sizes batches (fixed, or {@link AutoBatcher}, capped by {@link BatchLimits});
 * hands results to the caller in input order or completion order; fails the whole call on the
 * first task error, input error, worker failure or timeout, cancelling everything still running;
 * and reports progress.
 *
 * <p>Back-pressure: when {@link BatchLimits#maxWaitingBatches()} finished batches wait for a caller
 * who reads slower than the workers run, a completion dispatches nothing and the dispatch it owes
 * is made when the caller reads (in the caller's thread). So an {@code iterate()} over any number
 * of tasks holds a bounded number of tasks and results, whoever is the slower side.
 */
final class ParallelCall implements CallResults.Producer {
  private static final LazyLogger LOG = LazyLogger.of(ParallelCall.class);

  private final CallPlan plan;
  private final CallSpec spec;
  private final BackendCall backendCall;
  private final TaskSource source;
  private final BatchLimits limits;
  private final AutoBatcher batcher;
  /** The batch size when the backend asked for one batch per worker and the input's size is known, else 0. */
  private final int perWorkerSize;
  /** Samples tasks for the batcher; used under {@link #dispatchLock}. */
  private final HeapFootprint taskFootprint;
  /** Samples results for the batcher; used under its own monitor (completions run in many threads). */
  private final HeapFootprint resultFootprint;
  private final boolean ordered;
  private final ProgressTracker progress;
  private final Runnable onFinish;
  private final long startNanos = System.nanoTime();

  /** Serializes taking tasks and building batches. */
  private final ReentrantLock dispatchLock = new ReentrantLock();
  private final ArrayDeque<List<Delayed<?>>> readyBatches = new ArrayDeque<>();
  private long initialRemaining;
  private int nextBatchIndex;
  /**
   * While the initial dispatch cuts one batch per worker, the batches cut so far: sent to the
   * backend together ({@link BackendCall#submitAll}) once all are cut; else null.
   */
  private List<BatchState> cutTogether;

  /** Guards everything below. */
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<BatchState> inOrder = new ArrayDeque<>();
  private final ArrayDeque<BatchState> completedUnconsumed = new ArrayDeque<>();
  private final Set<BatchState> running = new LinkedHashSet<>();
  private long dispatchedTasks;
  private long dispatchedBatches;
  private long completedTasks;
  private long consumedTasks;
  /** Finished batches the caller has not read yet. */
  private int waitingBatches;
  /** Completions that dispatched nothing because too many batches were waiting. */
  private int owedDispatches;
  private boolean dispatchFinished;
  private Throwable failure;
  private String failureNote;
  private boolean failureRethrown;

  private final AtomicBoolean finished = new AtomicBoolean();
  private ScheduledFuture<?> watchdog;

  private ParallelCall(CallPlan plan, CallSpec spec, BackendCall backendCall, TaskSource source,
      boolean ordered, ProgressTracker progress, Runnable onFinish) {
    this.plan = plan;
    this.spec = spec;
    this.backendCall = backendCall;
    this.source = source;
    this.ordered = ordered;
    this.progress = progress;
    this.onFinish = onFinish;
    this.limits = BatchLimits.forCall(spec.nJobs());
    long known = plan.onePerWorker() ? source.knownSize() : -1;
    this.perWorkerSize = known > 0 ? perWorkerSize(known, spec.nJobs(), source.peek(), limits) : 0;
    this.batcher = plan.autoBatch() && perWorkerSize == 0 ? new AutoBatcher(limits) : null;
    this.taskFootprint = batcher != null ? new HeapFootprint() : null;
    this.resultFootprint = batcher != null ? new HeapFootprint() : null;
    this.initialRemaining = perWorkerSize > 0 ? Math.min(known, 2L * spec.nJobs() * perWorkerSize)
        : plan.preDispatchTasks();
  }

  /**
   * The batch size of a call of {@code known} tasks on a backend that asks for one batch per worker:
   * {@code known / nJobs} rounded up, or fewer tasks when the batch would pass the byte bound of a
   * batch (a task's estimated heap bytes, twice: its result is taken to be as large).
   */
  static int perWorkerSize(long known, int nJobs, Delayed<?> sample, BatchLimits limits) {
    long perWorker = (known + nJobs - 1) / nJobs;
    long perTask = Math.max(1, 2 * new HeapFootprint().ofTask(sample));
    long byBytes = Math.max(1, limits.maxBatchBytes() / perTask);
    return (int) Math.min(Integer.MAX_VALUE, Math.min(perWorker, byBytes));
  }

  /**
   * Starts a call: opens it on the backend and dispatches the first {@code preDispatch} tasks from
   * the caller's thread. {@code source} must hold at least one task.
   */
  static ParallelCall start(CallPlan plan, TaskSource source, boolean ordered, Runnable onFinish) {
    String description = source.peek().functionName();
    CallSpec spec = plan.spec(description);
    BackendCall backendCall = plan.backend().startCall(spec);
    ProgressTracker progress = new ProgressTracker(plan.listeners());
    ParallelCall call = new ParallelCall(plan, spec, backendCall, source, ordered, progress, onFinish);
    progress.started(new CallInfo(spec.callId(), plan.backend().name(), spec.nJobs(), description, plan.verbose()));
    if (plan.timeout() != null) {
      long timeoutNanos = plan.timeout().toNanos();
      long period = Math.max(5_000_000L, Math.min(timeoutNanos / 10, 100_000_000L));
      call.watchdog = Watchdog.every(period, call::checkTimeouts);
    }
    try {
      call.dispatchInitial();
    } catch (Throwable e) {
      call.fail(e, "the call could not start");
    }
    return call;
  }

  // ---- dispatch ----------------------------------------------------------------------------

  private void dispatchInitial() {
    dispatchLock.lock();
    try {
      cutTogether = perWorkerSize > 0 ? new ArrayList<>() : null;
      try {
        while ((initialRemaining > 0 || perWorkerSize > 0 && !readyBatches.isEmpty()) && dispatchOneBatch(true)) {
          // joblib: keep dispatching until the pre-dispatch slice of the input is used up (one batch per
          // worker: until every batch cut from it is sent)
        }
      } finally {
        List<BatchState> together = cutTogether;
        cutTogether = null;
        if (together != null && !together.isEmpty() && !isFailed()) {
          submitToBackend(together);
        }
      }
      initialRemaining = 0;
      if (readyBatches.isEmpty() && source.exhausted()) {
        markDispatchFinished();
      }
    } finally {
      dispatchLock.unlock();
    }
  }

  /** One more batch after a completion; marks the input finished when nothing is left. */
  private void dispatchNext() {
    dispatchLock.lock();
    try {
      if (!dispatchOneBatch(false) && readyBatches.isEmpty() && source.exhausted()) {
        markDispatchFinished();
      }
    } finally {
      dispatchLock.unlock();
    }
  }

  /** joblib's {@code dispatch_one_batch}; true if a batch went to the backend. */
  private boolean dispatchOneBatch(boolean initial) {
    if (isFailed()) {
      return false;
    }
    List<Delayed<?>> tasks = readyBatches.poll();
    if (tasks == null) {
      int nJobs = spec.nJobs();
      List<Delayed<?>> slice;
      long big;
      try {
        if (batcher != null) {
          sampleNextTask();
        }
        long batchSize = batcher != null ? batcher.batchSize()
            : perWorkerSize > 0 ? perWorkerSize : plan.fixedBatchSize();
        big = batchSize * nJobs;
        if (initial) {
          big = Math.min(big, initialRemaining);
        }
        slice = source.take(big);
      } catch (Throwable e) {
        fail(e, "the task input threw while the call took task " + (source.taken() + 1));
        return false;
      }
      if (initial) {
        initialRemaining -= slice.size();
      }
      if (slice.isEmpty()) {
        return false;
      }
      // near the end of the input, smaller batches keep the last workers from straggling (unless each
      // batch costs the backend more than a straggler would: then the slice is cut evenly)
      int finalSize = perWorkerSize > 0 ? (slice.size() + nJobs - 1) / nJobs
          : !initial && slice.size() < big
          ? Math.max(1, slice.size() / (10 * nJobs))
          : Math.max(1, slice.size() / nJobs);
      for (int i = 0; i < slice.size(); i += finalSize) {
        readyBatches.add(new ArrayList<>(slice.subList(i, Math.min(slice.size(), i + finalSize))));
      }
      tasks = readyBatches.poll();
    }
    submit(tasks);
    return true;
  }

  /**
   * Tells the batcher the estimated size of the next task before the next slice is sized, so that
   * a stream turning to large tasks gets small batches at once. One task per slice: the estimate
   * is cheap, and a slice is at least {@code nJobs} tasks.
   */
  private void sampleNextTask() {
    Delayed<?> next = source.peek();
    if (next != null) {
      batcher.taskSampled(taskFootprint.ofTask(next));
    }
  }

  private void sampleResult(Object[] results) {
    if (results.length > 0) {
      long bytes;
      synchronized (resultFootprint) {
        bytes = resultFootprint.of(results[results.length - 1]);
      }
      batcher.resultSampled(bytes);
    }
  }

  private void submit(List<Delayed<?>> tasks) {
    BatchState state;
    lock.lock();
    try {
      TaskBatch batch = new TaskBatch(spec.callId(), nextBatchIndex++, dispatchedTasks, tasks, spec.description(),
          plan.taskNestingLevel(), spec.threadBudget());
      state = new BatchState(this, batch);
      dispatchedTasks += tasks.size();
      dispatchedBatches++;
      running.add(state);
      if (ordered) {
        inOrder.add(state);
      }
    } finally {
      lock.unlock();
    }
    if (cutTogether != null) {
      cutTogether.add(state); // under dispatchLock, as the whole initial dispatch
      return;
    }
    submitToBackend(state);
  }

  private void submitToBackend(BatchState state) {
    try {
      backendCall.submit(state.batch, state);
    } catch (Throwable e) {
      fail(e, "the backend refused " + state.batch.description());
    }
  }

  /** Hands the backend the batches cut together, in one go. */
  private void submitToBackend(List<BatchState> states) {
    if (states.size() == 1) {
      submitToBackend(states.get(0));
      return;
    }
    try {
      backendCall.submitAll(states.stream().map(s -> new BatchSubmission(s.batch, s)).toList());
    } catch (Throwable e) {
      fail(e, "the backend refused " + states.get(0).batch.description() + " and the " + (states.size() - 1)
          + " batches cut with it");
    }
  }

  private void markDispatchFinished() {
    lock.lock();
    try {
      dispatchFinished = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    reportProgress();
  }

  // ---- completions, from the backend's threads -----------------------------------------------

  void batchCompleted(BatchState state, BatchOutcome outcome) {
    if (batcher != null) {
      batcher.batchCompleted(state.size(), System.nanoTime() - state.submitNanos);
      if (outcome.succeeded()) {
        sampleResult(outcome.results());
      }
    }
    if (!outcome.succeeded()) {
      fail(outcome.failure(), state.batch.describeTask(outcome.failedTask()) + " failed on " + outcome.worker());
      return;
    }
    Object[] results = outcome.results();
    if (results.length != state.size()) {
      fail(new IllegalStateException("backend " + plan.backend().name() + " returned "
          + results.length + " results for a batch of " + state.size() + " tasks"), "backend bug");
      return;
    }
    boolean dispatch;
    lock.lock();
    try {
      if (failure != null || !running.remove(state)) {
        return;
      }
      state.results = results;
      completedTasks += results.length;
      waitingBatches++;
      if (!ordered) {
        completedUnconsumed.add(state);
      }
      dispatch = dispatchFinished || waitingBatches <= limits.maxWaitingBatches();
      if (!dispatch) {
        owedDispatches++; // the caller makes it when it reads (back-pressure)
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    reportProgress();
    if (dispatch) {
      dispatchNext();
    }
  }

  void batchFailed(BatchState state, Throwable infrastructureFailure) {
    fail(infrastructureFailure, state.batch.description() + " could not run on backend "
        + plan.backend().name());
  }

  /** Records the call's failure (the first one wins) and cancels everything still running. */
  void fail(Throwable t, String note) {
    boolean first = false;
    lock.lock();
    try {
      if (failure == null && !finished.get()) {
        failure = t;
        failureNote = note;
        first = true;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (first) {
      cancelBackend();
    }
  }

  private boolean isFailed() {
    lock.lock();
    try {
      return failure != null;
    } finally {
      lock.unlock();
    }
  }

  private void cancelBackend() {
    try {
      backendCall.cancel();
    } catch (RuntimeException e) {
      LOG.get().warn("backend {} failed to cancel call {}", plan.backend().name(), spec.callId(), e);
    }
  }

  // ---- timeouts, from the watchdog thread ----------------------------------------------------

  private void checkTimeouts() {
    long limit = plan.timeout().toNanos();
    long now = System.nanoTime();
    BatchState expired = null;
    lock.lock();
    try {
      for (BatchState s : running) {
        long started = s.startNanos;
        if (started == 0) {
          continue; // still queued: the clock starts when a worker takes the batch
        }
        int done = s.tasksDone;
        if (s.watchdogProgressNanos == 0 || done != s.watchdogSeenDone) {
          s.watchdogSeenDone = done;
          s.watchdogProgressNanos = s.watchdogProgressNanos == 0 ? started : now;
        }
        long allowed = plan.backend().traits().reportsTaskProgress() ? limit : limit * s.size();
        if (now - s.watchdogProgressNanos > allowed) {
          expired = s;
          break;
        }
      }
    } finally {
      lock.unlock();
    }
    if (expired != null) {
      fail(new TimeoutException(expired.batch.describeTask(expired.tasksDone) + " ran longer than the timeout of "
          + plan.timeout() + "; the remaining tasks were cancelled"), "timeout");
    }
  }

  // ---- results, in the caller's thread --------------------------------------------------------

  /** The next batch of results for the caller, or null when the call is over; throws its failure. */
  @Override
  public Object[] nextResults() {
    while (true) {
      Object[] results = null;
      int resume;
      lock.lock();
      try {
        if (failure != null) {
          throw failureForCaller();
        }
        BatchState next = ordered ? inOrder.peek() : completedUnconsumed.peek();
        if (next != null && next.results != null) {
          if (ordered) {
            inOrder.poll();
          } else {
            completedUnconsumed.poll();
          }
          consumedTasks += next.results.length;
          waitingBatches--;
          results = next.results;
          next.results = null;
        } else if (dispatchFinished && running.isEmpty()
            && (ordered ? inOrder.isEmpty() : completedUnconsumed.isEmpty())) {
          return null;
        }
        // the same test a completion makes: dispatch while at most maxWaitingBatches wait
        resume = owedDispatches > 0 && waitingBatches <= limits.maxWaitingBatches() ? owedDispatches : 0;
        owedDispatches -= resume;
        if (results == null && resume == 0) {
          awaitChange();
          continue;
        }
      } finally {
        lock.unlock();
      }
      // outside the lock: dispatching takes the dispatch lock, which completions take first
      for (int i = 0; i < resume; i++) {
        dispatchNext();
      }
      if (results != null) {
        return results;
      }
    }
  }

  /** Waits for a completion or failure; the caller holds {@link #lock}. */
  private void awaitChange() {
    try {
      changed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CancellationException c = new CancellationException(
          "interrupted while waiting for the results of a Parallel call; its tasks were cancelled");
      c.initCause(e);
      failure = c;
      failureNote = "interrupted";
      failureRethrown = true;
      cancelInBackground();
      throw c;
    }
  }

  private RuntimeException failureForCaller() {
    if (!failureRethrown) {
      failureRethrown = true;
      failure.addSuppressed(new RethrownInCaller(
          "joblib4j: " + failureNote + "; rethrown in the caller's thread"));
    }
    return io.joblib4j.internal.Sneaky.rethrow(failure);
  }

  private void cancelInBackground() {
    // cancel outside the lock: a backend may block briefly while it stops its workers
    Thread t = new Thread(this::cancelBackend, "joblib4j-cancel-" + spec.callId());
    t.setDaemon(true);
    t.start();
  }

  /**
   * Ends the call: closes it on the backend and reports the outcome. Called once the caller has
   * every result, or got the failure, or gave up; idempotent.
   */
  @Override
  public void finish() {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    if (watchdog != null) {
      watchdog.cancel(false);
    }
    Throwable f;
    lock.lock();
    try {
      f = failure;
    } finally {
      lock.unlock();
    }
    try {
      backendCall.close();
    } catch (RuntimeException e) {
      LOG.get().warn("backend {} failed to close call {}", plan.backend().name(), spec.callId(), e);
    }
    progress.finished(snapshot(), f);
    onFinish.run();
  }

  /**
   * The caller stopped reading before the end (closed the iterator, or dropped it): cancels what
   * is still running and warns about work done for nothing, as joblib does.
   */
  @Override
  public void abandon() {
    if (finished.get()) {
      return;
    }
    long unused;
    long cancelled;
    boolean wasFailed;
    lock.lock();
    try {
      wasFailed = failure != null;
      unused = completedTasks - consumedTasks;
      cancelled = dispatchedTasks - completedTasks;
      if (!wasFailed) {
        failure = new CancellationException("the caller closed the result iterator");
        failureNote = "abandoned";
        failureRethrown = true;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (!wasFailed) {
      cancelBackend();
      if (unused > 0 || cancelled > 0 || !source.exhausted()) {
        Warnings.warn(ParallelCall.class, unused + " tasks have been successfully executed but not used."
            + " Additionally, " + cancelled + " tasks which were still being processed by the workers"
            + " have been cancelled. Consume every result, or close the iterator only when you are done.");
      }
    }
    finish();
  }

  private void reportProgress() {
    if (progress.active()) {
      progress.progressed(snapshot());
    }
  }

  private Progress snapshot() {
    lock.lock();
    try {
      long known = source.knownSize();
      long total = known >= 0 ? known : (dispatchFinished ? dispatchedTasks : -1);
      return new Progress(completedTasks, dispatchedTasks, total, dispatchedBatches, dispatchFinished,
          System.nanoTime() - startNanos);
    } finally {
      lock.unlock();
    }
  }
}
