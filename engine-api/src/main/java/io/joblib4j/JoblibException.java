package io.joblib4j;

import org.apiguardian.api.API;

/**
 * The root of every error joblib4j raises itself. Unchecked, so that {@code dump}, {@code load} and
 * the parallel API can be used from lambdas without wrapping.
 *
 * <p>I/O failures are reported as {@link java.io.UncheckedIOException} and bad arguments as
 * {@link IllegalArgumentException}; everything about the content of a file or a task is a subclass
 * of this class.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class JoblibException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An error with its explanation.
   *
   * @param message what was wrong and what to do
   */
  public JoblibException(String message) {
    super(message);
  }

  /**
   * An error with its explanation and cause.
   *
   * @param message what was wrong and what to do
   * @param cause the error behind it
   */
  public JoblibException(String message, Throwable cause) {
    super(message, cause);
  }
}
