package io.joblib4j;

import java.io.Serial;
import org.apiguardian.api.API;

/**
 * A task, its initializer or its result could not cross the boundary to or from a worker JVM:
 * something in it is not {@link java.io.Serializable}, its class cannot be loaded on the other
 * side, or its {@code readObject}/{@code writeObject} failed.
 *
 * <p>The message names the task, the offending class and, when it can be found, the path of fields
 * that leads to it from the task ({@code argument 1 (Model) → field 'client' (Client) → field
 * 'socket' (java.net.Socket)}). The call fails; the workers stay healthy for the next call.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class TaskSerializationException extends JoblibException {
  @Serial private static final long serialVersionUID = 1L;

  /** The class at fault, or null. */
  private final String className;
  /** The field path to it, or {@code ""}. */
  private final String path;

  /**
   * @param message the full explanation shown to the user
   * @param className the class that could not be serialized or deserialized, or {@code null}
   * @param path the field path from the task to it, or {@code ""} if not known
   * @param cause the serialization error
   */
  public TaskSerializationException(String message, String className, String path, Throwable cause) {
    super(message, cause);
    this.className = className;
    this.path = path == null ? "" : path;
  }

  /**
   * The class at fault (binary name), or {@code null} if the error does not name one.
   *
   * @return the binary class name, or {@code null}
   */
  public String className() {
    return className;
  }

  /**
   * The field path from the task to the object at fault, or {@code ""} if not known.
   *
   * @return the path, e.g. {@code argument 0 (Model) → field 'client' (Client)}
   */
  public String path() {
    return path;
  }
}
