package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;

/**
 * The Store contract on an object store with GCS's rules: an upload finalized with
 * {@code ifGenerationMatch=0} at close, a folder rename that is copy plus delete. No GCS emulator
 * runs here; these are the rules its documentation states (docs/stores.md, "Object stores").
 */
class GcsRulesContractTest extends ObjectStoreContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    return FakeObjectStore.openStore(dir, FakeObjectStore.Rules.GCS);
  }
}
