package io.joblib4j.hdfs;

import io.joblib4j.testing.ApiStatus;
import org.junit.jupiter.api.Test;

/** hdfs-store's public types say how stable they are (see {@link ApiStatus}). */
class ApiStatusTest {
  @Test
  void everyPublicTypeHasAStatusAndTheInternalPackageIsInternal() {
    ApiStatus.assertEveryPublicTypeIsMarked(ChunkedArray.class);
  }
}
