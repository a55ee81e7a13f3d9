package io.joblib4j.scala

import java.util.concurrent.atomic.AtomicInteger

/** Functions as a Scala application defines them: in an object, with a call counter. */
object Fixtures {
  val calls = new AtomicInteger()

  def double(x: Int): Int = 2 * x

  def features(day: Int): Array[Double] = Array(day.toDouble, day * 0.5)

  def slow(x: Int): Int = {
    calls.incrementAndGet()
    x * 10
  }

  def label(name: String, n: Int): String = s"$name-$n"

  def sum6(a: Int, b: Int, c: Int, d: Int, e: Int, f: Int): Int = a + b + c + d + e + f

  def failOn3(x: Int): Int = if (x == 3) throw new IllegalStateException("no 3 please") else x
}

/** A class whose method values capture the instance. */
final class Scorer(val weight: Int) extends Serializable {
  def score(x: Int): Int = x * weight
}
