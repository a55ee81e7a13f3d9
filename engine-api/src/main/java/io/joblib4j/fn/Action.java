package io.joblib4j.fn;

import io.joblib4j.internal.Sneaky;
import java.io.Serializable;
import org.apiguardian.api.API;

/**
 * A serializable action with no arguments and no result, such as a worker initializer:
 * {@code Parallel.builder().initializer(() -> NativeLib.load())}.
 */
@FunctionalInterface
@API(status = API.Status.STABLE, since = "0.1")
public interface Action extends Serializable {

  /**
   * Performs the action.
   *
   * @throws Exception whatever the action throws
   */
  void invoke() throws Exception;

  /** Performs the action; an exception thrown by {@link #invoke} propagates unchanged, even a checked one. */
  default void run() {
    try {
      invoke();
    } catch (Exception failure) {
      throw Sneaky.rethrow(failure);
    }
  }
}
