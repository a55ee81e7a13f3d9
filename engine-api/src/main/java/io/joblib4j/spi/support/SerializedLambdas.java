package io.joblib4j.spi.support;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The {@link SerializedLambda} the compiler generates for a serializable lambda or method
 * reference: what it calls and the values it captured. joblib4j reads it to name functions, to
 * identify memoized ones, and to find the captured value that keeps a task from being serialized;
 * a backend that walks what its tasks hold can read it the same way.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class SerializedLambdas {
  private SerializedLambdas() {}

  /**
   * The serialized form of {@code fn}.
   *
   * @param fn any object
   * @return the form if {@code fn} is a serializable lambda or method reference, empty for an
   *     ordinary object (a class implementing the function interface) or one whose form cannot be read
   */
  public static Optional<SerializedLambda> of(Object fn) {
    if (!(fn instanceof Serializable) || !fn.getClass().isSynthetic()) {
      return Optional.empty();
    }
    try {
      Method writeReplace = fn.getClass().getDeclaredMethod("writeReplace");
      writeReplace.setAccessible(true);
      Object replacement = writeReplace.invoke(fn);
      return replacement instanceof SerializedLambda sl ? Optional.of(sl) : Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
