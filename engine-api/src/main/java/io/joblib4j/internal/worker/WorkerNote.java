package io.joblib4j.internal.worker;

import java.io.Serial;

/** A note attached as a suppressed exception to say where a worker-side failure happened. */
final class WorkerNote extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  WorkerNote(String message) {
    super(message, null, false, false);
  }
}
