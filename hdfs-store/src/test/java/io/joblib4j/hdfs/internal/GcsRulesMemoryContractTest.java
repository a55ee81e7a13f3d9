package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;

/** Memory's contract on an object store with GCS's rules ({@link GcsRulesContractTest} says which). */
class GcsRulesMemoryContractTest extends ObjectStoreMemoryContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    return FakeObjectStore.openStore(dir, FakeObjectStore.Rules.GCS);
  }
}
