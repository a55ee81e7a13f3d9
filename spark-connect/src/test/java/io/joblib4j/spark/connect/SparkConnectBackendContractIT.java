package io.joblib4j.spark.connect;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;

/**
 * The backend contract on Spark Connect: a client JVM with only the Connect client, the tasks run
 * in the server's JVM ({@code local[2]}), reached through spark-backend's dispatch ({@code new
 * SparkBackend(connectSession, options)}, by reflection: see {@link ConnectServer#sparkBackend}). The per-task timeout case is skipped by the kit itself:
 * progress within a batch arrives with the batch's result on this path.
 */
class SparkConnectBackendContractIT extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return ConnectServer.sparkBackend(ConnectServer.session(), ConnectServer.options());
  }
}
