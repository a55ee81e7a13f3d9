package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** Memory's contract on an object store with ABFS's rules ({@link AbfsRulesContractTest} says which). */
class AbfsRulesMemoryContractTest extends ObjectStoreMemoryContractTest {
  @Override
  protected Store newEmptyStore() throws Exception {
    Configuration conf = FakeObjectStore.register(new Configuration());
    conf.set("fakeobj.rules", "abfs");
    return HadoopStoreOpener.open(FakeObjectStore.location(dir.resolve("bucket")), conf,
        Map.of("localCacheDir", dir.resolve("copies").toString()));
  }
}
