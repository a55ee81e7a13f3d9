package io.joblib4j.scala

import io.joblib4j.fn.{Action, Fn0, Fn1, Fn2, Fn3, Fn4, Fn5, Fn6, FunctionAdapter}

/*
 * Scala functions as joblib4j's Fn0..Fn6 and back. Each adapter is a FunctionAdapter, so joblib4j
 * names, identifies and versions the function it adapts (a Scala lambda, a method value), never
 * the adapter's own invoke; converting back and forth unwraps instead of nesting adapters.
 * Scala's lambdas are serializable, so the adapters travel to child JVMs and Spark executors.
 */

private[scala] final class ScalaFn0[R](val f: () => R) extends Fn0[R] with FunctionAdapter {
  override def invoke(): R = f()
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn0($f)"
}

private[scala] final class ScalaFn1[A, R](val f: A => R) extends Fn1[A, R] with FunctionAdapter {
  override def invoke(a: A): R = f(a)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn1($f)"
}

private[scala] final class ScalaFn2[A, B, R](val f: (A, B) => R) extends Fn2[A, B, R] with FunctionAdapter {
  override def invoke(a: A, b: B): R = f(a, b)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn2($f)"
}

private[scala] final class ScalaFn3[A, B, C, R](val f: (A, B, C) => R) extends Fn3[A, B, C, R]
    with FunctionAdapter {
  override def invoke(a: A, b: B, c: C): R = f(a, b, c)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn3($f)"
}

private[scala] final class ScalaFn4[A, B, C, D, R](val f: (A, B, C, D) => R) extends Fn4[A, B, C, D, R]
    with FunctionAdapter {
  override def invoke(a: A, b: B, c: C, d: D): R = f(a, b, c, d)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn4($f)"
}

private[scala] final class ScalaFn5[A, B, C, D, E, R](val f: (A, B, C, D, E) => R)
    extends Fn5[A, B, C, D, E, R] with FunctionAdapter {
  override def invoke(a: A, b: B, c: C, d: D, e: E): R = f(a, b, c, d, e)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn5($f)"
}

private[scala] final class ScalaFn6[A, B, C, D, E, F, R](val f: (A, B, C, D, E, F) => R)
    extends Fn6[A, B, C, D, E, F, R] with FunctionAdapter {
  override def invoke(a: A, b: B, c: C, d: D, e: E, g: F): R = f(a, b, c, d, e, g)
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Fn6($f)"
}

private[scala] final class ScalaAction(val f: () => Unit) extends Action with FunctionAdapter {
  override def invoke(): Unit = f()
  override def adaptedFunction(): AnyRef = f
  override def toString: String = s"Action($f)"
}

private[scala] final class JoblibFn0[R](val fn: Fn0[R]) extends (() => R) with FunctionAdapter with Serializable {
  override def apply(): R = fn.apply()
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn1[A, R](val fn: Fn1[A, R]) extends (A => R) with FunctionAdapter
    with Serializable {
  override def apply(a: A): R = fn.apply(a)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn2[A, B, R](val fn: Fn2[A, B, R]) extends ((A, B) => R) with FunctionAdapter
    with Serializable {
  override def apply(a: A, b: B): R = fn.apply(a, b)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn3[A, B, C, R](val fn: Fn3[A, B, C, R]) extends ((A, B, C) => R)
    with FunctionAdapter with Serializable {
  override def apply(a: A, b: B, c: C): R = fn.apply(a, b, c)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn4[A, B, C, D, R](val fn: Fn4[A, B, C, D, R]) extends ((A, B, C, D) => R)
    with FunctionAdapter with Serializable {
  override def apply(a: A, b: B, c: C, d: D): R = fn.apply(a, b, c, d)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn5[A, B, C, D, E, R](val fn: Fn5[A, B, C, D, E, R])
    extends ((A, B, C, D, E) => R) with FunctionAdapter with Serializable {
  override def apply(a: A, b: B, c: C, d: D, e: E): R = fn.apply(a, b, c, d, e)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

private[scala] final class JoblibFn6[A, B, C, D, E, F, R](val fn: Fn6[A, B, C, D, E, F, R])
    extends ((A, B, C, D, E, F) => R) with FunctionAdapter with Serializable {
  override def apply(a: A, b: B, c: C, d: D, e: E, g: F): R = fn.apply(a, b, c, d, e, g)
  override def adaptedFunction(): AnyRef = fn
  override def toString: String = fn.toString
}

/** Conversions that unwrap an adapter instead of wrapping it again. */
private[scala] object Adapters {
  def fn0[R](f: () => R): Fn0[R] = f match {
    case back: JoblibFn0[R @unchecked] => back.fn
    case _ => new ScalaFn0(f)
  }
  def fn1[A, R](f: A => R): Fn1[A, R] = f match {
    case back: JoblibFn1[A @unchecked, R @unchecked] => back.fn
    case _ => new ScalaFn1(f)
  }
  def fn2[A, B, R](f: (A, B) => R): Fn2[A, B, R] = f match {
    case back: JoblibFn2[A @unchecked, B @unchecked, R @unchecked] => back.fn
    case _ => new ScalaFn2(f)
  }
  def fn3[A, B, C, R](f: (A, B, C) => R): Fn3[A, B, C, R] = f match {
    case back: JoblibFn3[A @unchecked, B @unchecked, C @unchecked, R @unchecked] => back.fn
    case _ => new ScalaFn3(f)
  }
  def fn4[A, B, C, D, R](f: (A, B, C, D) => R): Fn4[A, B, C, D, R] = f match {
    case back: JoblibFn4[A @unchecked, B @unchecked, C @unchecked, D @unchecked, R @unchecked] => back.fn
    case _ => new ScalaFn4(f)
  }
  def fn5[A, B, C, D, E, R](f: (A, B, C, D, E) => R): Fn5[A, B, C, D, E, R] = f match {
    case back: JoblibFn5[A @unchecked, B @unchecked, C @unchecked, D @unchecked, E @unchecked, R @unchecked] =>
      back.fn
    case _ => new ScalaFn5(f)
  }
  def fn6[A, B, C, D, E, F, R](f: (A, B, C, D, E, F) => R): Fn6[A, B, C, D, E, F, R] = f match {
    case back: JoblibFn6[A @unchecked, B @unchecked, C @unchecked, D @unchecked, E @unchecked, F @unchecked,
          R @unchecked] => back.fn
    case _ => new ScalaFn6(f)
  }

  def scala0[R](fn: Fn0[R]): () => R = fn match {
    case s: ScalaFn0[R @unchecked] => s.f
    case _ => new JoblibFn0(fn)
  }
  def scala1[A, R](fn: Fn1[A, R]): A => R = fn match {
    case s: ScalaFn1[A @unchecked, R @unchecked] => s.f
    case _ => new JoblibFn1(fn)
  }
  def scala2[A, B, R](fn: Fn2[A, B, R]): (A, B) => R = fn match {
    case s: ScalaFn2[A @unchecked, B @unchecked, R @unchecked] => s.f
    case _ => new JoblibFn2(fn)
  }
  def scala3[A, B, C, R](fn: Fn3[A, B, C, R]): (A, B, C) => R = fn match {
    case s: ScalaFn3[A @unchecked, B @unchecked, C @unchecked, R @unchecked] => s.f
    case _ => new JoblibFn3(fn)
  }
  def scala4[A, B, C, D, R](fn: Fn4[A, B, C, D, R]): (A, B, C, D) => R = fn match {
    case s: ScalaFn4[A @unchecked, B @unchecked, C @unchecked, D @unchecked, R @unchecked] => s.f
    case _ => new JoblibFn4(fn)
  }
  def scala5[A, B, C, D, E, R](fn: Fn5[A, B, C, D, E, R]): (A, B, C, D, E) => R = fn match {
    case s: ScalaFn5[A @unchecked, B @unchecked, C @unchecked, D @unchecked, E @unchecked, R @unchecked] => s.f
    case _ => new JoblibFn5(fn)
  }
  def scala6[A, B, C, D, E, F, R](fn: Fn6[A, B, C, D, E, F, R]): (A, B, C, D, E, F) => R = fn match {
    case s: ScalaFn6[A @unchecked, B @unchecked, C @unchecked, D @unchecked, E @unchecked, F @unchecked,
          R @unchecked] => s.f
    case _ => new JoblibFn6(fn)
  }
}
