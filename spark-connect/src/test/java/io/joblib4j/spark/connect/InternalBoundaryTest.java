package io.joblib4j.spark.connect;

import io.joblib4j.testing.InternalBoundary;
import org.junit.jupiter.api.Test;

/** spark-connect uses engine-api through its public API and SPI only (see {@link InternalBoundary}). */
class InternalBoundaryTest {
  @Test
  void noClassOfThisModuleUsesEngineApiInternals() {
    InternalBoundary.assertNoInternalReferences(SparkConnectBackend.class, InternalBoundaryTest.class);
  }
}
