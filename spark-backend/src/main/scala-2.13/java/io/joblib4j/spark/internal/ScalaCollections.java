package io.joblib4j.spark.internal;

import java.util.List;
import java.util.stream.IntStream;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Scala collections the backend hands to Spark and reads from it, for Scala 2.13 (this folder
 * is compiled only for 2.13 builds; scala-2.12/ holds the same class for 2.12). They differ in two
 * ways Java sees: 2.13's converters live in {@code scala.jdk.javaapi}, which 2.12 lacks, and
 * {@code scala.Seq}, which Spark's signatures take, is {@code immutable.Seq} in 2.13 but
 * {@code collection.Seq} in 2.12.
 */
final class ScalaCollections {
  private ScalaCollections() {}

  /** 0, 1, ..., n - 1, as the partition list {@code SparkContext.submitJob} takes. */
  static scala.collection.immutable.Seq<Object> indices(int n) {
    List<Object> list = IntStream.range(0, n).boxed().map(i -> (Object) i).toList();
    return CollectionConverters.asScala(list).toSeq();
  }

  static <T> List<T> asJava(scala.collection.Seq<T> seq) {
    return CollectionConverters.asJava(seq);
  }

  static <T> java.util.Iterator<T> asJava(scala.collection.Iterator<T> iterator) {
    return CollectionConverters.asJava(iterator);
  }
}
