package io.joblib4j.spark.stages.internal;

import java.util.List;
import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Scala collections of Spark's plans, seen from Java, for Scala 2.13 (this folder is compiled
 * only for 2.13 builds; scala-2.12/ holds the same class for 2.12). They differ in two ways Java
 * sees: 2.13's converters live in {@code scala.jdk.javaapi}, which 2.12 lacks, and {@code
 * scala.Seq}, which Spark's signatures take, is {@code immutable.Seq} in 2.13 but {@code
 * collection.Seq} in 2.12.
 */
final class ScalaCollections {
  private ScalaCollections() {}

  static <T> List<T> asJava(scala.collection.Seq<T> seq) {
    return CollectionConverters.asJava(seq);
  }

  static <K, V> Map<K, V> asJava(scala.collection.Map<K, V> map) {
    return CollectionConverters.asJava(map);
  }

  /** An empty {@code scala.Seq}, as Spark's methods take it. */
  static <T> scala.collection.immutable.Seq<T> emptySeq() {
    return CollectionConverters.asScala(List.<T>of()).toSeq();
  }
}
