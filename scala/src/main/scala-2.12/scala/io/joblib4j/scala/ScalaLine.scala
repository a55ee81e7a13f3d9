package io.joblib4j.scala

import _root_.scala.collection.JavaConverters._

/**
 * What differs between the Scala versions this module is built for, for Scala 2.12 (this folder is
 * compiled only for 2.12 builds; `scala-2.13/` holds the same object for 2.13): 2.12 has no
 * `IterableOnce` (its `TraversableOnce` is the same idea), no `scala.jdk.CollectionConverters`
 * (`JavaConverters` instead) and no `Vector.from`.
 */
object ScalaLine {

  /** A collection or an iterator of inputs: `scala.collection.TraversableOnce` on 2.12. */
  type IterableOnce[+A] = _root_.scala.collection.TraversableOnce[A]

  /** A Java result list as an immutable `Seq`. */
  private[scala] def toSeq[R](results: java.util.List[R]): Seq[R] = results.asScala.toVector

  /** A sized Java view of a Scala collection, or a lazy one-pass view of an iterator. */
  private[scala] def javaIterable[T](xs: IterableOnce[T]): java.lang.Iterable[T] = xs match {
    case seq: _root_.scala.collection.Seq[T] => seq.asJava
    case it: _root_.scala.collection.Iterable[T] => it.asJava
    case once =>
      val it = once.toIterator.asJava
      () => it
  }
}
