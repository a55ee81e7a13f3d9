package io.joblib4j.fn;

import org.apiguardian.api.API;

/**
 * A function object that only adapts another function to {@link Fn0} ... {@link Fn6} — a Scala
 * {@code Function1} made into an {@code Fn1}, say. joblib4j names, identifies and versions it as
 * the function it adapts: the adapter's own class (the same for every function it wraps) never
 * becomes a memoized function's identity or a task's name.
 *
 * <p>Implement it in a bridge to another language's function types; the adapted function should be
 * a serializable lambda or method reference (Scala's are), or an object whose class has the code.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface FunctionAdapter {

  /**
   * The function this object calls; itself possibly another adapter.
   *
   * @return the adapted function
   */
  Object adaptedFunction();
}
