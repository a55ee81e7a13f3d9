package io.joblib4j.array;

import io.joblib4j.JoblibException;
import org.apiguardian.api.API;

/**
 * A write to an {@link NDArray} mapped {@link io.joblib4j.MmapMode#READ_ONLY}. Map or load it with
 * {@code READ_WRITE} (writes reach the file) or {@code COPY_ON_WRITE} (writes stay private), or
 * {@link NDArray#copy()} it to the heap.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class ReadOnlyArrayException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /**
   * A write refused.
   *
   * @param message which array, and how to get a writable one
   */
  public ReadOnlyArrayException(String message) {
    super(message);
  }
}
