package io.joblib4j.internal.threads;

import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;

/** One call on the threads backend. */
final class ThreadsCall implements BackendCall {
  private final WorkerPool pool;
  private final CallSpec spec;
  private volatile boolean cancelled;

  ThreadsCall(WorkerPool pool, CallSpec spec) {
    this.pool = pool;
    this.spec = spec;
  }

  boolean cancelled() {
    return cancelled;
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    if (!cancelled) {
      pool.submit(new WorkerPool.Job(this, batch, listener, spec.initializer()));
    }
  }

  @Override
  public void cancel() {
    if (!cancelled) {
      cancelled = true;
      pool.cancel(this);
    }
  }

  @Override
  public void close() {
    // the workers stay for the next call; a call closed early still drops its queued batches
    if (!cancelled) {
      cancelled = true;
      pool.cancel(this);
    }
  }
}
