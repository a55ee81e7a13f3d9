package io.joblib4j.spark.stages;

import io.joblib4j.testing.ApiStatus;
import org.junit.jupiter.api.Test;

/** stage-cache's public types say how stable they are (see {@link ApiStatus}). */
class StageCacheApiStatusTest {
  @Test
  void everyPublicTypeHasAStatusAndTheInternalPackageIsInternal() {
    ApiStatus.assertEveryPublicTypeIsMarked(StageCache.class);
  }
}
