package io.joblib4j.scala

import _root_.scala.jdk.CollectionConverters._

/**
 * What differs between the Scala versions this module is built for, for Scala 2.13 (this folder is
 * compiled only for 2.13 builds; `scala-2.12/` holds the same object for 2.12): the type of "a
 * collection or an iterator" and the Java conversions.
 */
object ScalaLine {

  /** A collection or an iterator of inputs: `scala.collection.IterableOnce` on 2.13. */
  type IterableOnce[+A] = _root_.scala.collection.IterableOnce[A]

  /** A Java result list as an immutable `Seq`. */
  private[scala] def toSeq[R](results: java.util.List[R]): Seq[R] = Vector.from(results.asScala)

  /** A sized Java view of a Scala collection, or a lazy one-pass view of an iterator. */
  private[scala] def javaIterable[T](xs: IterableOnce[T]): java.lang.Iterable[T] = xs match {
    case seq: _root_.scala.collection.Seq[T] => seq.asJava
    case it: _root_.scala.collection.Iterable[T] => it.asJava
    case once =>
      val it = once.iterator.asJava
      () => it
  }
}
