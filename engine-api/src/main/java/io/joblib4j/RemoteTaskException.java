package io.joblib4j;

import java.io.PrintWriter;
import java.io.Serial;
import java.io.StringWriter;
import org.apiguardian.api.API;

/**
 * Stands in for an exception a task threw in another JVM — a child worker of the {@code processes}
 * backend, a Spark executor — that could not be brought back as itself: it holds something that
 * is not serializable, or its class cannot be loaded or deserialized in the caller's JVM. {@code
 * Parallel} throws this in its place, keeping what is known: the original class name and message,
 * the worker's stack trace (as this exception's own stack trace, and as text), and the same for
 * each exception in its cause chain and each suppressed one.
 *
 * <p>Exceptions that can travel come back as themselves, on every backend; only these do not.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class RemoteTaskException extends JoblibException {
  @Serial private static final long serialVersionUID = 1L;
  /** Cause chains can be cyclic through a misbehaving {@code getCause()}. */
  private static final int MAX_DEPTH = 32;

  /** The original exception's class name. */
  private final String remoteClassName;
  /** Its message, or null. */
  private final String remoteMessage;
  /** Its stack trace, causes included, as printed where it was thrown. */
  private final String remoteStackTrace;
  /** The worker it was thrown in. */
  private final String worker;

  /**
   * @param remoteClassName the original exception's class
   * @param remoteMessage its message, or null
   * @param remoteStackTrace its stack trace as printed where it was thrown, causes included
   * @param worker the worker it was thrown in, e.g. {@code "process 4711"}
   */
  public RemoteTaskException(String remoteClassName, String remoteMessage, String remoteStackTrace,
      String worker) {
    this(remoteClassName, remoteMessage, remoteStackTrace, worker, true);
  }

  private RemoteTaskException(String remoteClassName, String remoteMessage, String remoteStackTrace,
      String worker, boolean explain) {
    super(remoteClassName + (remoteMessage != null ? ": " + remoteMessage : "") + (explain ? " (thrown in "
        + worker + "; the exception could not be brought back as itself, so its class, message and stack"
        + " trace are kept)" : ""));
    this.remoteClassName = remoteClassName;
    this.remoteMessage = remoteMessage;
    this.remoteStackTrace = remoteStackTrace;
    this.worker = worker;
  }

  /**
   * A stand-in for {@code original}, made where it was thrown: same class name, message and stack
   * trace, and stand-ins for its causes and suppressed exceptions. It holds only strings and stack
   * trace elements, so it can always travel.
   *
   * @param worker the worker {@code original} was thrown in
   * @param original the exception a task threw
   * @return the stand-in, with the same for each cause
   */
  public static RemoteTaskException of(Throwable original, String worker) {
    return copy(original, worker, true, 0);
  }

  private static RemoteTaskException copy(Throwable t, String worker, boolean outermost, int depth) {
    StringWriter text = new StringWriter();
    t.printStackTrace(new PrintWriter(text));
    RemoteTaskException copy = new RemoteTaskException(t.getClass().getName(), t.getMessage(), text.toString(),
        worker, outermost);
    copy.setStackTrace(t.getStackTrace());
    if (depth < MAX_DEPTH) {
      Throwable cause = t.getCause();
      if (cause != null && cause != t) {
        copy.initCause(copy(cause, worker, false, depth + 1));
      }
      for (Throwable s : t.getSuppressed()) {
        copy.addSuppressed(copy(s, worker, false, depth + 1));
      }
    }
    return copy;
  }

  /**
   * The class of the exception the task threw, e.g. {@code com.example.ModelError}.
   *
   * @return the binary class name
   */
  public String remoteClassName() {
    return remoteClassName;
  }

  /**
   * Its message, or null.
   *
   * @return the message, or null
   */
  public String remoteMessage() {
    return remoteMessage;
  }

  /**
   * Its stack trace as {@link Throwable#printStackTrace()} printed it in the worker, causes
   * included.
   *
   * @return the stack trace as text
   */
  public String remoteStackTrace() {
    return remoteStackTrace;
  }

  /**
   * The worker it was thrown in.
   *
   * @return e.g. {@code "process 4711"} or {@code "executor 3 on host-a"}
   */
  public String worker() {
    return worker;
  }
}
