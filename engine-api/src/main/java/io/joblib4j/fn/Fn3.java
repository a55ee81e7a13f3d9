package io.joblib4j.fn;

import io.joblib4j.internal.Sneaky;
import java.io.Serializable;
import org.apiguardian.api.API;

/**
 * A serializable function of 3 arguments, so that a task built from it can leave the JVM (child-JVM
 * workers, Spark executors) and a memoized version of it can be identified by its code.
 *
 * <p>Lambdas and method references convert to it directly; the body may throw checked exceptions.
 * Call it with {@link #apply}, which rethrows whatever {@link #invoke} threw, checked or not,
 * without wrapping it.
 *
 * @param <A> the type of argument 1
 * @param <B> the type of argument 2
 * @param <C> the type of argument 3
 * @param <R> the result type
 */
@FunctionalInterface
@API(status = API.Status.STABLE, since = "0.1")
public interface Fn3<A, B, C, R> extends Serializable {

  /**
   * Computes the result.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @return the result
   * @throws Exception whatever the function throws
   */
  R invoke(A a, B b, C c) throws Exception;

  /**
   * Computes the result; an exception thrown by {@link #invoke} propagates unchanged, even a
   * checked one.
   *
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @return the result, as {@link #invoke} computed it
   */
  default R apply(A a, B b, C c) {
    try {
      return invoke(a, b, c);
    } catch (Exception failure) {
      throw Sneaky.rethrow(failure);
    }
  }
}
