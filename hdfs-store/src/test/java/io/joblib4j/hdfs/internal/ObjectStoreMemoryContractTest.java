package io.joblib4j.hdfs.internal;

import io.joblib4j.MemoryContractTest;
import io.joblib4j.spi.Store;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;

/** Memory's contract, unchanged, over an object store (marker mode). */
class ObjectStoreMemoryContractTest extends MemoryContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws Exception {
    return HadoopStoreOpener.open(FakeObjectStore.location(dir.resolve("bucket")),
        FakeObjectStore.register(new Configuration()), Map.of("localCacheDir", dir.resolve("copies").toString()));
  }
}
