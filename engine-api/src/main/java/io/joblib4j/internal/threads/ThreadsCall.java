package io.joblib4j.internal.threads;

import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;
import java.util.concurrent.atomic.AtomicBoolean;

/** One call on the threads backend. */
final class ThreadsCall implements BackendCall {
  private final WorkerPool pool;
  private final CallSpec spec;
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private volatile boolean closed;

  ThreadsCall(WorkerPool pool, CallSpec spec) {
    this.pool = pool;
    this.spec = spec;
  }

  /** Whether this call's batches should no longer run or report: it was cancelled or closed. */
  boolean cancelled() {
    return closed || cancelled.get();
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    if (!cancelled()) {
      pool.submit(new WorkerPool.Job(this, batch, listener, spec.initializer()));
    }
  }

  @Override
  public void cancel() {
    // even after close(): the caller may have ended the call before the core's cancel arrived
    if (cancelled.compareAndSet(false, true)) {
      pool.cancel(this);
    }
  }

  @Override
  public void close() {
    // the workers stay for the next call: a worker may still be returning from this call's last
    // batch, which must not retire it; only batches still queued (after a cancel) are dropped
    closed = true;
    pool.dropQueued(this);
  }
}
