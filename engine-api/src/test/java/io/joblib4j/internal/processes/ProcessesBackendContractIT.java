package io.joblib4j.internal.processes;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;
import java.util.Map;

/** The backend contract on the processes backend: tasks in child JVMs, which the shared pool reuses. */
class ProcessesBackendContractIT extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return Workers.backend(Map.of());
  }
}
