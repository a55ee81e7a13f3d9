package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Store contract on an object store with ABFS's rules: a create that must not overwrite is
 * decided at create, and leaves an empty file visible until the writer closes it. No ABFS emulator
 * runs here; these are the rules its documentation states (docs/stores.md, "Object stores").
 */
class AbfsRulesContractTest extends ObjectStoreContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    Configuration conf = FakeObjectStore.register(new Configuration());
    conf.set("fakeobj.rules", "abfs");
    return HadoopStoreOpener.open(FakeObjectStore.location(dir.resolve("bucket")), conf,
        Map.of("localCacheDir", dir.resolve("copies").toString()));
  }
}
