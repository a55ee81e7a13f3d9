package io.joblib4j.spark.stages.internal;

import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * Visits every node of a plan and of its subqueries, on Spark 4 (spark-3.5/ holds the same class
 * for 3.5, whose plans have no {@code foreachWithSubqueries}).
 */
final class PlanWalks {
  private PlanWalks() {}

  static void foreachWithSubqueries(LogicalPlan plan, Consumer<LogicalPlan> visit) {
    plan.foreachWithSubqueries(node -> {
      visit.accept(node);
      return null;
    });
  }
}
