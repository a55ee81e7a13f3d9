package io.joblib4j.internal.parallel;

import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendContractTest;

/** The backend contract on the sequential backend: tasks one by one in the caller's thread. */
class SequentialBackendContractTest extends BackendContractTest {
  @Override
  protected Backend newBackend() {
    return new SequentialBackend();
  }

  @Override
  protected boolean runsTasksConcurrently() {
    return false;
  }

  @Override
  protected boolean enforcesTimeouts() {
    return false; // as in joblib: the sequential backend warns and ignores the timeout
  }
}
