package io.joblib4j.spark;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;
import java.util.Map;

/**
 * The backend contract on the job path ({@code spark.joblib4j.channel=job}: a Spark job per batch,
 * results back through Spark's own result path, no driver port), with executors in two JVMs of
 * their own. One case does not apply and is skipped by its own assumption:
 * {@code theTimeoutAppliesToEachTaskNotToAWholeBatchBecauseWorkersReportEachTask} — on this path a
 * batch's progress arrives with its result (executors have no channel to report each task on), so
 * the backend's traits say so and the core applies a timeout to a whole batch (timeout × batch size).
 */
class SparkJobPathContractIT extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return new SparkBackend(ClusterSpark.shared().sc(), Map.of("channel", "job"));
  }
}
