package io.joblib4j.fn;

import io.joblib4j.internal.fn.Lambdas;
import org.apiguardian.api.API;

/**
 * The name joblib4j gives a function wherever a user reads it — task descriptions, progress
 * lines, the Spark UI's job descriptions, error messages and field paths: {@code Scorer.score}
 * for a method reference or a Scala method value, {@code lambda in Demo.main} for a lambda, the
 * function a memoized function or a {@link FunctionAdapter} stands for, never a REPL cell's
 * wrapper class. Backends that name functions in their own messages call it too.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class FunctionNames {
  private FunctionNames() {}

  /**
   * The short, readable name of {@code function}.
   *
   * @param function a lambda, method reference, function object or memoized function
   * @return its name, e.g. {@code "Scorer.score"}; {@code "null"} for null
   */
  public static String of(Object function) {
    return Lambdas.describe(function);
  }
}
