package io.joblib4j.internal.fn;

/**
 * A function object joblib4j itself wraps around a user's function — a memoized function. Like a
 * {@link io.joblib4j.fn.FunctionAdapter}, it is named as the function it wraps ({@link
 * Lambdas#describe}): a task's name, the progress bar's label and the Spark UI's job description say
 * {@code Signals.hamming}, never the wrapper's class.
 */
public interface WrapsFunction {

  /** The user's function this object wraps. */
  Object wrappedFunction();
}
