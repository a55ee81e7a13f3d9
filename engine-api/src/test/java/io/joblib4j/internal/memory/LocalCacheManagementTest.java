package io.joblib4j.internal.memory;

import io.joblib4j.CacheManagementContractTest;
import io.joblib4j.spi.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.io.TempDir;

/** Listing, stats, explain, prune, verify and limits on the local store. */
class LocalCacheManagementTest extends CacheManagementContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws Exception {
    return new LocalStore(dir.resolve("cache"));
  }

  @Override
  protected void plantAbandonedTemporary(Store store) throws Exception {
    Path temp = dir.resolve("cache").resolve(LocalTree.TEMP_PREFIX + "output-dead");
    Files.createDirectories(temp);
    Files.write(temp.resolve("output.jl4j"), new byte[100]);
    Files.setLastModifiedTime(temp, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
  }
}
