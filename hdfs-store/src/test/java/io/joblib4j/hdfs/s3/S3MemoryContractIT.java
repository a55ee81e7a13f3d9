package io.joblib4j.hdfs.s3;

import io.joblib4j.MemoryContractTest;
import io.joblib4j.hdfs.internal.HadoopStoreOpener;
import io.joblib4j.spi.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** Memory's contract, unchanged, on S3 (S3Proxy through S3A), with S3A's conditional writes on and off. */
class S3MemoryContractIT {
  abstract static class OnS3 extends MemoryContractTest {
    @TempDir Path localCache;

    abstract boolean conditionalWrites();

    @Override
    protected Store newEmptyStore() throws Exception {
      S3Server.skipWhereAskingForConditionalWritesChangesNothing(conditionalWrites());
      S3Server s3 = S3Server.shared();
      return HadoopStoreOpener.open(s3.newLocation("memory"), s3.conf(conditionalWrites()),
          Map.of("localCacheDir", localCache.toString()));
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
