package io.joblib4j.internal.progress;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.ProgressListener;
import io.joblib4j.ProgressListener.CallInfo;
import io.joblib4j.ProgressListener.Progress;
import java.util.List;

/**
 * Fans a call's progress out to its listeners one event at a time, so a listener never sees two
 * events of one call concurrently; a listener that throws is logged and ignored.
 */
public final class ProgressTracker {
  private static final LazyLogger LOG = LazyLogger.of(ProgressTracker.class);
  private final List<ProgressListener> listeners;
  private CallInfo call;
  private boolean finished;

  public ProgressTracker(List<ProgressListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** Whether anyone listens; callers skip building snapshots when not. */
  public boolean active() {
    return !listeners.isEmpty();
  }

  public synchronized void started(CallInfo info) {
    this.call = info;
    for (ProgressListener l : listeners) {
      try {
        l.started(info);
      } catch (RuntimeException e) {
        LOG.get().warn("progress listener {} failed", l, e);
      }
    }
  }

  public synchronized void progressed(Progress p) {
    if (finished) {
      return; // a worker's late report must not follow the end of the call
    }
    for (ProgressListener l : listeners) {
      try {
        l.progressed(call, p);
      } catch (RuntimeException e) {
        LOG.get().warn("progress listener {} failed", l, e);
      }
    }
  }

  public synchronized void finished(Progress p, Throwable failure) {
    if (finished) {
      return;
    }
    finished = true;
    for (ProgressListener l : listeners) {
      try {
        l.finished(call, p, failure);
      } catch (RuntimeException e) {
        LOG.get().warn("progress listener {} failed", l, e);
      }
    }
  }
}
