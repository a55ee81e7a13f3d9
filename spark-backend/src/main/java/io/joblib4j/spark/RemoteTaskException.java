package io.joblib4j.spark;

import java.io.Serial;

/**
 * A task failed on an executor with an exception that could not be brought back as itself: its
 * class is not serializable, or cannot be loaded or deserialized on the driver. It keeps what is
 * known — the class name, the message and the executor-side stack trace as text — and is thrown
 * by {@code Parallel.run} in its place.
 */
public final class RemoteTaskException extends RuntimeException {
  @Serial private static final long serialVersionUID = 1L;

  private final String remoteClassName;
  private final String remoteStackTrace;
  private final String worker;

  /**
   * @param remoteClassName the original exception's class
   * @param remoteMessage its message, or null
   * @param remoteStackTrace its stack trace as printed on the executor, causes included
   * @param worker the executor it ran on
   */
  public RemoteTaskException(String remoteClassName, String remoteMessage, String remoteStackTrace,
      String worker) {
    super(remoteClassName + (remoteMessage != null ? ": " + remoteMessage : "") + " (thrown on " + worker
        + "; the exception could not be sent to the driver as itself, so its class, message and"
        + " stack trace are kept as text)");
    this.remoteClassName = remoteClassName;
    this.remoteStackTrace = remoteStackTrace;
    this.worker = worker;
  }

  /** The class of the exception the task threw, e.g. {@code com.example.ModelError}. */
  public String remoteClassName() {
    return remoteClassName;
  }

  /** The executor-side stack trace, as {@link Throwable#printStackTrace()} printed it there. */
  public String remoteStackTrace() {
    return remoteStackTrace;
  }

  /** The executor the task ran on. */
  public String worker() {
    return worker;
  }

  @Override
  public String toString() {
    return super.toString() + "\n--- executor-side stack trace ---\n" + remoteStackTrace;
  }
}
