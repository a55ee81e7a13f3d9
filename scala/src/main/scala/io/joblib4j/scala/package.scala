package io.joblib4j

import _root_.scala.language.implicitConversions
import io.joblib4j.fn.{Action, Fn0, Fn1, Fn2, Fn3, Fn4, Fn5, Fn6}
import io.joblib4j.scala.ScalaLine.{IterableOnce, javaIterable, toSeq}

/**
 * joblib4j for Scala: `import io.joblib4j.scala._` and Scala functions, method values and
 * collections work with joblib4j's Java API as they do in joblib.
 *
 * {{{
 * import io.joblib4j.{Memory, Parallel}
 * import io.joblib4j.scala._
 *
 * def features(day: Int): Array[Double] = ...
 * val memory   = new Memory("cache")
 * val cached   = memory.cache(features _)              // a memoized function: cached(3)
 * val p        = Parallel.builder().backend("spark").build()
 * val rows     = p.map(cached, 1 to 31)                 // a Seq, in input order
 * val sums     = p.run((1 to 31).map(delayed(score _))) // joblib's Parallel()(delayed(f)(x) for x in xs)
 * }}}
 *
 *  - Scala functions (`Function0`..`Function6`), method values (`features _`) and lambdas convert to
 *    `Fn0`..`Fn6` wherever joblib4j expects one, and joblib4j's functions (memoized ones too)
 *    convert back to Scala functions: `days.map(cached)`.
 *  - `delayed(f)` is joblib's: a function building the task, `delayed(f)(x)`.
 *  - `Parallel` takes Scala collections and iterators of inputs or tasks and returns a `Seq`, or a
 *    Scala `Iterator` when streaming.
 *
 * A lambda passed where an overloaded Java method expects an `FnN` needs its parameter types
 * (`(x: Int) => x * 2`); a method value (`f _`) never does.
 */
package object scala {

  implicit def functionAsFn0[R](f: () => R): Fn0[R] = Adapters.fn0(f)
  implicit def functionAsFn1[A, R](f: A => R): Fn1[A, R] = Adapters.fn1(f)
  implicit def functionAsFn2[A, B, R](f: (A, B) => R): Fn2[A, B, R] = Adapters.fn2(f)
  implicit def functionAsFn3[A, B, C, R](f: (A, B, C) => R): Fn3[A, B, C, R] = Adapters.fn3(f)
  implicit def functionAsFn4[A, B, C, D, R](f: (A, B, C, D) => R): Fn4[A, B, C, D, R] = Adapters.fn4(f)
  implicit def functionAsFn5[A, B, C, D, E, R](f: (A, B, C, D, E) => R): Fn5[A, B, C, D, E, R] =
    Adapters.fn5(f)
  implicit def functionAsFn6[A, B, C, D, E, F, R](f: (A, B, C, D, E, F) => R): Fn6[A, B, C, D, E, F, R] =
    Adapters.fn6(f)
  /** An initializer: `Parallel.builder().initializer(init)`. */
  implicit def functionAsAction(f: () => Unit): Action = new ScalaAction(f)

  implicit def fn0AsFunction[R](fn: Fn0[R]): () => R = Adapters.scala0(fn)
  implicit def fn1AsFunction[A, R](fn: Fn1[A, R]): A => R = Adapters.scala1(fn)
  implicit def fn2AsFunction[A, B, R](fn: Fn2[A, B, R]): (A, B) => R = Adapters.scala2(fn)
  implicit def fn3AsFunction[A, B, C, R](fn: Fn3[A, B, C, R]): (A, B, C) => R = Adapters.scala3(fn)
  implicit def fn4AsFunction[A, B, C, D, R](fn: Fn4[A, B, C, D, R]): (A, B, C, D) => R = Adapters.scala4(fn)
  implicit def fn5AsFunction[A, B, C, D, E, R](fn: Fn5[A, B, C, D, E, R]): (A, B, C, D, E) => R =
    Adapters.scala5(fn)
  implicit def fn6AsFunction[A, B, C, D, E, F, R](fn: Fn6[A, B, C, D, E, F, R]): (A, B, C, D, E, F) => R =
    Adapters.scala6(fn)

  /** joblib's `delayed(f)()`: the task of calling `f`. */
  def delayed[R](f: () => R): () => Delayed[R] = () => Delayed.delayed(Adapters.fn0(f))

  /** joblib's `delayed(f)(a)`: a function making the task `f(a)`, so `xs.map(delayed(f))` are the tasks. */
  def delayed[A, R](f: A => R): A => Delayed[R] = {
    val fn = Adapters.fn1(f)
    a => Delayed.delayed(fn, a)
  }

  /** joblib's `delayed(f)(a, b)`. */
  def delayed[A, B, R](f: (A, B) => R): (A, B) => Delayed[R] = {
    val fn = Adapters.fn2(f)
    (a, b) => Delayed.delayed(fn, a, b)
  }

  /** joblib's `delayed(f)(a, b, c)`. */
  def delayed[A, B, C, R](f: (A, B, C) => R): (A, B, C) => Delayed[R] = {
    val fn = Adapters.fn3(f)
    (a, b, c) => Delayed.delayed(fn, a, b, c)
  }

  /** joblib's `delayed(f)(a, b, c, d)`. */
  def delayed[A, B, C, D, R](f: (A, B, C, D) => R): (A, B, C, D) => Delayed[R] = {
    val fn = Adapters.fn4(f)
    (a, b, c, d) => Delayed.delayed(fn, a, b, c, d)
  }

  /** joblib's `delayed(f)(a, b, c, d, e)`. */
  def delayed[A, B, C, D, E, R](f: (A, B, C, D, E) => R): (A, B, C, D, E) => Delayed[R] = {
    val fn = Adapters.fn5(f)
    (a, b, c, d, e) => Delayed.delayed(fn, a, b, c, d, e)
  }

  /** joblib's `delayed(f)(a, b, c, d, e, g)`. */
  def delayed[A, B, C, D, E, F, R](f: (A, B, C, D, E, F) => R): (A, B, C, D, E, F) => Delayed[R] = {
    val fn = Adapters.fn6(f)
    (a, b, c, d, e, g) => Delayed.delayed(fn, a, b, c, d, e, g)
  }

  /**
   * `Parallel` with Scala collections: used when the Java method of the same name does not take the
   * arguments (a `Seq`, a `Range`, an `Iterator`).
   */
  implicit final class ParallelOps(private val parallel: Parallel) extends AnyVal {

    /** `f` applied to every input, in input order: `run(inputs.map(delayed(f)))`. */
    def map[A, R](f: A => R, inputs: IterableOnce[A]): Seq[R] = map(Adapters.fn1(f), inputs)

    /** A joblib4j function (a memoized one, say) applied to every input, in input order. */
    def map[A, R](f: Fn1[A, R], inputs: IterableOnce[A]): Seq[R] =
      toSeq(parallel.map[A, R](f, javaIterable(inputs)))

    /** Runs every task and returns the results in input order. */
    def run[R](tasks: IterableOnce[Delayed[R]]): Seq[R] =
      toSeq(parallel.run[R](javaIterable(tasks)))

    /** The results in input order as they are ready (joblib's `return_as="generator"`). */
    def iterate[R](tasks: IterableOnce[Delayed[R]]): Results[R] =
      new Results(parallel.iterate[R](javaIterable(tasks)))

    /** The results as tasks finish, fastest first (joblib's `return_as="generator_unordered"`). */
    def iterateUnordered[R](tasks: IterableOnce[Delayed[R]]): Results[R] =
      new Results(parallel.iterateUnordered[R](javaIterable(tasks)))
  }
}
