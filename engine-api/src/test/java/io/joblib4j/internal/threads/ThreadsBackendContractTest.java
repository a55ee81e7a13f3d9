package io.joblib4j.internal.threads;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;
import io.joblib4j.spi.Backends;
import java.util.Map;

/** The backend contract on the threads backend. */
class ThreadsBackendContractTest extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return Backends.create("threads", Map.of());
  }
}
