package io.joblib4j.spark.stages.internal;

import java.util.List;
import java.util.Map;
import scala.collection.JavaConverters;

/**
 * The Scala collections of Spark's plans, seen from Java, for Scala 2.12 (this folder is compiled
 * only for 2.12 builds; scala-2.13/ holds the same class for 2.13). 2.12 has no {@code
 * scala.jdk.javaapi}: its converters are {@code JavaConverters}; and {@code scala.Seq}, which
 * Spark's signatures take, is {@code collection.Seq} here.
 */
final class ScalaCollections {
  private ScalaCollections() {}

  static <T> List<T> asJava(scala.collection.Seq<T> seq) {
    return JavaConverters.seqAsJavaList(seq);
  }

  static <K, V> Map<K, V> asJava(scala.collection.Map<K, V> map) {
    return JavaConverters.mapAsJavaMap(map);
  }

  /** An empty {@code scala.Seq}, as Spark's methods take it. */
  static <T> scala.collection.Seq<T> emptySeq() {
    return JavaConverters.asScalaBuffer(List.<T>of()).toSeq();
  }
}
