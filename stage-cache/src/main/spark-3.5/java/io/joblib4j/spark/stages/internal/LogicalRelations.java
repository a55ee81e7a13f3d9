package io.joblib4j.spark.stages.internal;

import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.sources.BaseRelation;

/**
 * A plan's relation node reading another relation, on Spark 3.5 (spark-4/ holds the same class for
 * Spark 4, whose {@code LogicalRelation} has a fifth field, the {@code stream} it reads).
 */
final class LogicalRelations {
  private LogicalRelations() {}

  static LogicalRelation reading(LogicalRelation node, BaseRelation relation) {
    return node.copy(relation, node.output(), node.catalogTable(), node.isStreaming());
  }
}
