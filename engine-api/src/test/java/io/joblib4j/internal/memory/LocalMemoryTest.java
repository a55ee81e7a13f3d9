package io.joblib4j.internal.memory;

import io.joblib4j.MemoryContractTest;
import io.joblib4j.spi.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The Memory contract on the local store. */
class LocalMemoryTest extends MemoryContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws Exception {
    return new LocalStore(dir.resolve("cache"));
  }
}
