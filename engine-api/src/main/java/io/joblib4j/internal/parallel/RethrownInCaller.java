package io.joblib4j.internal.parallel;

import java.io.Serial;

/**
 * Attached as a suppressed exception to a task's exception when the core rethrows it in the
 * caller's thread: its message says which task failed where, its stack trace is the caller's, so
 * a printed stack trace shows both the worker's side and the caller's.
 */
final class RethrownInCaller extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  RethrownInCaller(String message) {
    super(message);
  }
}
