package io.joblib4j;

import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;
import io.joblib4j.internal.fn.Invoke;
import io.joblib4j.internal.fn.Lambdas;
import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.apiguardian.api.API;

/**
 * A function call captured for later: the function and its arguments, run by {@link Parallel} on
 * one of its workers. joblib's {@code delayed(f)(x, y)} is {@code delayed(f, x, y)} here:
 *
 * <pre>{@code
 * import static io.joblib4j.Delayed.delayed;
 *
 * List<Double> roots = Parallel.nJobs(2)
 *     .run(IntStream.range(0, 10).mapToObj(i -> delayed(Math::sqrt, (double) i * i)));
 * }</pre>
 *
 * <p>A {@code Delayed} is {@link Serializable} whenever its arguments are, so it can be shipped to
 * child JVMs and Spark executors. The function types ({@link Fn0} ... {@link Fn6}) are serializable
 * already; a lambda that captures a value captures it by serialization too, so captured values must
 * be serializable for the non-thread backends.
 *
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Delayed<R> implements Callable<R>, Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The function the task applies. */
  private final Serializable function;
  /** Its arguments, in order. */
  private final Object[] args;

  private Delayed(Serializable function, Object... args) {
    this.function = Objects.requireNonNull(function, "function");
    this.args = args;
  }

  /**
   * A call of {@code fn} with no arguments: {@code delayed(() -> expensive())}.
   *
   * @param <R> the result type
   * @param fn the function
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <R> Delayed<R> delayed(Fn0<R> fn) {
    return new Delayed<>(fn);
  }

  /**
   * A call {@code fn(a)}.
   *
   * @param <A> the type of the first argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, R> Delayed<R> delayed(Fn1<A, R> fn, A a) {
    return new Delayed<>(fn, a);
  }

  /**
   * A call {@code fn(a, b)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, B, R> Delayed<R> delayed(Fn2<A, B, R> fn, A a, B b) {
    return new Delayed<>(fn, a, b);
  }

  /**
   * A call {@code fn(a, b, c)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, B, C, R> Delayed<R> delayed(
      Fn3<A, B, C, R> fn, A a, B b, C c) {
    return new Delayed<>(fn, a, b, c);
  }

  /**
   * A call {@code fn(a, b, c, d)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, B, C, D, R> Delayed<R> delayed(
      Fn4<A, B, C, D, R> fn, A a, B b, C c, D d) {
    return new Delayed<>(fn, a, b, c, d);
  }

  /**
   * A call {@code fn(a, b, c, d, e)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, B, C, D, E, R> Delayed<R> delayed(
      Fn5<A, B, C, D, E, R> fn,
      A a, B b, C c, D d, E e) {
    return new Delayed<>(fn, a, b, c, d, e);
  }

  /**
   * A call {@code fn(a, b, c, d, e, f)}.
   *
   * @param <A> the type of the first argument
   * @param <B> the type of the second argument
   * @param <C> the type of the third argument
   * @param <D> the type of the fourth argument
   * @param <E> the type of the fifth argument
   * @param <F> the type of the sixth argument
   * @param <R> the result type
   * @param fn the function
   * @param a the first argument
   * @param b the second argument
   * @param c the third argument
   * @param d the fourth argument
   * @param e the fifth argument
   * @param f the sixth argument
   * @return the task, which applies {@code fn} to the arguments when it runs
   */
  public static <A, B, C, D, E, F, R> Delayed<R> delayed(
      Fn6<A, B, C, D, E, F, R> fn,
      A a, B b, C c, D d, E e, F f) {
    return new Delayed<>(fn, a, b, c, d, e, f);
  }

  /** Runs the call in the current thread; the function's exception, checked or not, propagates. */
  @Override
  @SuppressWarnings("unchecked")
  public R call() throws Exception {
    return (R) Invoke.call(function, args);
  }

  /**
   * The function this call applies: one of {@link Fn0} ... {@link Fn6}.
   *
   * @return the function the task applies
   */
  public Serializable function() {
    return function;
  }

  /**
   * The arguments, in order; unmodifiable, and may contain nulls.
   *
   * @return the arguments, in order
   */
  public List<Object> arguments() {
    return Collections.unmodifiableList(Arrays.asList(args.clone()));
  }

  /**
   * The function's short name ({@code Scorer.score}, {@code lambda in Demo.main}), used in progress
   * lines, Spark job descriptions and error messages.
   *
   * @return the function's name, e.g. {@code "Scorer.score"} (see {@link
   *     io.joblib4j.fn.FunctionNames})
   */
  public String functionName() {
    return Lambdas.describe(function);
  }

  @Override
  public String toString() {
    return "delayed(" + functionName() + (args.length == 0 ? "" : ", " + args.length + " args") + ")";
  }
}
