package io.joblib4j.hdfs.s3;

import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreContractTest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** The Store contract, unchanged, on S3 (S3Proxy through S3A), with S3A's conditional writes on and off. */
class S3StoreContractIT {
  abstract static class OnS3 extends StoreContractTest {
    @TempDir Path localCache;
    URI location;

    abstract boolean conditionalWrites();

    @Override
    protected Store newEmptyStore() throws Exception {
      S3Server s3 = S3Server.shared();
      location = s3.newLocation("contract");
      Map<String, Object> options = new HashMap<>(Map.of("localCacheDir", localCache.toString()));
      return HadoopStoreOpener.open(location, s3.conf(conditionalWrites()), options);
    }

    /** Written into the server's folder, where a file's modification time is the object's: S3 cannot backdate one. */
    @Override
    protected void leaveDeadWritersTemporary(String entry, Duration age) throws Exception {
      Path root = S3Server.shared().bucketDir().resolve(location.getPath().substring(1));
      String publication = "dead-writer";
      Path record = root.resolve(".jl4j-tmp").resolve(".jl4j-" + publication + ".claim");
      Files.createDirectories(record.getParent());
      Files.writeString(record, entry);
      Path target = root.resolve(entry);
      Files.createDirectories(target);
      Files.writeString(target.resolve(".jl4j-claim"), publication);
      Files.writeString(target.resolve("output"), "half");
      Files.setLastModifiedTime(record, FileTime.from(Instant.now().minus(age)));
    }
  }

  @Nested
  class WithConditionalWrites extends OnS3 {
    @Override
    boolean conditionalWrites() {
      return true;
    }
  }

  @Nested
  class WithoutConditionalWrites extends OnS3 {
    @Override
    boolean conditionalWrites() {
      return false;
    }
  }
}
