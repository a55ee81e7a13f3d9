package io.joblib4j.spark;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;

/**
 * The backend contract on Spark, with executors in two JVMs of their own (local-cluster): the task
 * classes of the contract reach them only through the jars the application ships, as on a real
 * cluster.
 */
class SparkBackendContractIT extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return new SparkBackend(ClusterSpark.shared());
  }
}
