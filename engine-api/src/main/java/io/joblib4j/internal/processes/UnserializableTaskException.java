package io.joblib4j.internal.processes;

import java.io.Serial;

/**
 * Stands in for an exception a task threw in a worker that could not be serialized back (it holds
 * a non-serializable field, or its class cannot be loaded by the parent): same class name and
 * message in its own message, same stack trace, and the same treatment for its causes and
 * suppressed exceptions.
 */
final class UnserializableTaskException extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  private final String originalClass;

  private UnserializableTaskException(Throwable original, String why) {
    super(original.getClass().getName() + (original.getMessage() == null ? "" : ": " + original.getMessage())
        + (why == null ? "" : " [the original exception could not be sent from the worker: " + why + "]"));
    this.originalClass = original.getClass().getName();
    setStackTrace(original.getStackTrace());
  }

  /** The class name of the exception this one stands for. */
  String originalClass() {
    return originalClass;
  }

  /** A serializable copy of {@code t}, its cause chain and suppressed exceptions. */
  static UnserializableTaskException copyOf(Throwable t, String why) {
    return copyOf(t, why, 0);
  }

  private static UnserializableTaskException copyOf(Throwable t, String why, int depth) {
    UnserializableTaskException copy = new UnserializableTaskException(t, why);
    if (depth < 32) { // cause chains can be cyclic through a misbehaving getCause()
      Throwable cause = t.getCause();
      if (cause != null && cause != t) {
        copy.initCause(copyOf(cause, null, depth + 1));
      }
      for (Throwable s : t.getSuppressed()) {
        copy.addSuppressed(copyOf(s, null, depth + 1));
      }
    }
    return copy;
  }
}
