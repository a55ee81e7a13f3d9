package io.joblib4j.spark.stages.internal;

import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.sources.BaseRelation;

/**
 * A plan's relation node reading another relation, on Spark 4 (spark-3.5/ holds the same class for
 * 3.5, whose {@code LogicalRelation} has no {@code stream} field).
 */
final class LogicalRelations {
  private LogicalRelations() {}

  static LogicalRelation reading(LogicalRelation node, BaseRelation relation) {
    return node.copy(relation, node.output(), node.catalogTable(), node.isStreaming(), node.stream());
  }
}
