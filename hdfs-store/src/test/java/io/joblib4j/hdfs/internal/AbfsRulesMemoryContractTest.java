package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;

/** Memory's contract on an object store with ABFS's rules ({@link AbfsRulesContractTest} says which). */
class AbfsRulesMemoryContractTest extends ObjectStoreMemoryContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    return FakeObjectStore.openStore(dir, FakeObjectStore.Rules.ABFS);
  }
}
