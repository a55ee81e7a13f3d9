package io.joblib4j.spark.stages.internal;

import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * Visits every node of a plan and of its subqueries, on Spark 3.5 (spark-4/ holds the same class
 * for Spark 4). 3.5's plans have no {@code foreachWithSubqueries}: this is what Spark 4's does,
 * each node first, then the subqueries of its expressions, in the same order.
 */
final class PlanWalks {
  private PlanWalks() {}

  static void foreachWithSubqueries(LogicalPlan plan, Consumer<LogicalPlan> visit) {
    plan.foreach(node -> {
      visit.accept(node);
      ScalaCollections.asJava(node.subqueries()).forEach(sub -> foreachWithSubqueries(sub, visit));
      return null;
    });
  }
}
