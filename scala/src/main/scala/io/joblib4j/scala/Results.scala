package io.joblib4j.scala

import io.joblib4j.ResultIterator
import org.apiguardian.api.API

/**
 * Results streamed by `Parallel.iterate` / `iterateUnordered` as a Scala `Iterator`. Closing it
 * before the end cancels the tasks still running; read it to the end (or close it) before the
 * `Parallel`'s next call.
 */
@API(status = API.Status.STABLE, since = "0.1")
final class Results[R] private[scala] (underlying: ResultIterator[R])
    extends _root_.scala.collection.AbstractIterator[R] with AutoCloseable {
  override def hasNext: Boolean = underlying.hasNext
  override def next(): R = underlying.next()
  override def close(): Unit = underlying.close()
}
