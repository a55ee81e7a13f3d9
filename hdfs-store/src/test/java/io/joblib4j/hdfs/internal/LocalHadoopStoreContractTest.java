package io.joblib4j.hdfs.internal;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;

/** The Store contract, unchanged, on Hadoop's local file system ({@code file:} through this store). */
class LocalHadoopStoreContractTest extends StoreContractTest {
  @TempDir Path dir;

  @Override
  protected Store newEmptyStore() throws Exception {
    return HadoopStoreOpener.open(dir.resolve("cache").toUri(), new Configuration(),
        Map.of("localCacheDir", dir.resolve("copies").toString()));
  }

  @Override
  protected void leaveDeadWritersTemporary(String entry, Duration age) throws Exception {
    Path temp = dir.resolve("cache").resolve(".jl4j-tmp").resolve(".jl4j-w-dead");
    Files.createDirectories(temp);
    Files.writeString(temp.resolve("output"), "half");
    FileTime then = FileTime.from(Instant.now().minus(age));
    Files.setLastModifiedTime(temp.resolve("output"), then);
    Files.setLastModifiedTime(temp, then);
  }
}
