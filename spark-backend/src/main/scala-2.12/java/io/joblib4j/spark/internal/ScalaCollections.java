package io.joblib4j.spark.internal;

import java.util.List;
import java.util.stream.IntStream;
import scala.collection.JavaConverters;

/**
 * The Scala collections the backend hands to Spark and reads from it, for Scala 2.12 (this folder
 * is compiled only for 2.12 builds; scala-2.13/ holds the same class for 2.13). 2.12 has no
 * {@code scala.jdk.javaapi}: its converters are {@code JavaConverters}; and {@code scala.Seq},
 * which Spark's signatures take, is {@code collection.Seq} here.
 */
final class ScalaCollections {
  private ScalaCollections() {}

  /** 0, 1, ..., n - 1, as the partition list {@code SparkContext.submitJob} takes. */
  static scala.collection.Seq<Object> indices(int n) {
    List<Object> list = IntStream.range(0, n).boxed().map(i -> (Object) i).toList();
    return JavaConverters.asScalaBuffer(list).toSeq();
  }

  static <T> List<T> asJava(scala.collection.Seq<T> seq) {
    return JavaConverters.seqAsJavaList(seq);
  }

  static <T> java.util.Iterator<T> asJava(scala.collection.Iterator<T> iterator) {
    return JavaConverters.asJavaIterator(iterator);
  }
}
