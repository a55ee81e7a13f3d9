package io.joblib4j.spark.connect;

import io.joblib4j.testing.ApiStatus;
import org.junit.jupiter.api.Test;

/** spark-connect's public types say how stable they are (see {@link ApiStatus}). */
class ApiStatusTest {
  @Test
  void everyPublicTypeHasAStatusAndTheInternalPackageIsInternal() {
    ApiStatus.assertEveryPublicTypeIsMarked(SparkConnectBackend.class);
  }
}
