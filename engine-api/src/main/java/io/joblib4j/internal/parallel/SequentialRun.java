package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import io.joblib4j.ProgressListener.CallInfo;
import io.joblib4j.ProgressListener.Progress;
import io.joblib4j.fn.Action;
import io.joblib4j.internal.Sneaky;
import io.joblib4j.internal.progress.ProgressTracker;
import java.util.List;

/**
 * A call with one job: each batch runs in the caller's thread when the caller asks for the next
 * result, so taking tasks and running them interleave batch by batch (joblib's lazy sequential
 * loop). A task's exception propagates as is. The caller's thread is the call's one worker: the
 * initializer, if any, runs in it before the first task, once per call.
 */
final class SequentialRun implements CallResults.Producer {
  private final CallPlan plan;
  private final TaskSource source;
  private final ProgressTracker progress;
  private final long startNanos = System.nanoTime();
  private long completed;
  private long batches;
  private final Runnable onFinish;
  private boolean started;
  private boolean initialized;
  private boolean finished;

  SequentialRun(CallPlan plan, TaskSource source, Runnable onFinish) {
    this.plan = plan;
    this.source = source;
    this.onFinish = onFinish;
    this.progress = new ProgressTracker(plan.listeners());
  }

  /** Runs the next batch and returns its results, or null at the end of the input. */
  @Override
  public Object[] nextResults() {
    if (!started) {
      started = true;
      Delayed<?> first = source.peek();
      progress.started(new CallInfo(CallIds.next(), "sequential", 1,
          first == null ? "tasks" : first.functionName(), plan.verbose()));
    }
    List<Delayed<?>> batch;
    try {
      batch = source.take(plan.fixedBatchSize());
    } catch (Throwable e) {
      end(e);
      throw e;
    }
    if (batch.isEmpty()) {
      return null;
    }
    if (!initialized) {
      initialized = true;
      runInitializer();
    }
    Object[] results = new Object[batch.size()];
    for (int i = 0; i < results.length; i++) {
      try {
        results[i] = batch.get(i).call();
      } catch (Exception e) {
        end(e);
        throw Sneaky.rethrow(e);
      }
    }
    completed += results.length;
    batches++;
    if (progress.active()) {
      progress.progressed(snapshot());
    }
    return results;
  }

  private void runInitializer() {
    Action initializer = plan.initializer();
    if (initializer == null) {
      return;
    }
    try {
      initializer.invoke();
    } catch (Exception e) {
      end(e);
      throw Sneaky.rethrow(e);
    }
  }

  @Override
  public void finish() {
    end(null);
  }

  @Override
  public void abandon() {
    end(null);
  }

  private void end(Throwable failure) {
    if (finished) {
      return;
    }
    finished = true;
    try {
      if (started) {
        progress.finished(snapshot(), failure);
      }
    } finally {
      onFinish.run();
    }
  }

  private Progress snapshot() {
    boolean done = source.exhausted();
    long known = source.knownSize();
    return new Progress(completed, source.taken(), known >= 0 ? known : done ? source.taken() : -1,
        batches, done, System.nanoTime() - startNanos);
  }
}
