package io.joblib4j.internal.parallel;

import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;

/**
 * One dispatched batch as the core tracks it, and the listener its backend reports to. The
 * backend's calls are forwarded to the owning {@link ParallelCall}.
 */
final class BatchState implements BatchListener {
  final ParallelCall call;
  final TaskBatch batch;
  final long submitNanos;
  volatile long startNanos;
  volatile int tasksDone;
  /** Written and read by the watchdog thread only. */
  int watchdogSeenDone;
  long watchdogProgressNanos;
  /** Set under the call's lock when the batch succeeded. */
  Object[] results;

  BatchState(ParallelCall call, TaskBatch batch) {
    this.call = call;
    this.batch = batch;
    this.submitNanos = System.nanoTime();
  }

  int size() {
    return batch.size();
  }

  @Override
  public void started() {
    if (startNanos == 0) {
      startNanos = Math.max(System.nanoTime(), 1);
    }
  }

  @Override
  public void taskDone(int done) {
    tasksDone = done;
  }

  @Override
  public void completed(BatchOutcome outcome) {
    call.batchCompleted(this, outcome);
  }

  @Override
  public void failed(Throwable infrastructureFailure) {
    call.batchFailed(this, infrastructureFailure);
  }
}
