package io.joblib4j.spark.stages;

import io.joblib4j.testing.InternalBoundary;
import org.junit.jupiter.api.Test;

/** stage-cache uses engine-api through its public API and SPI only (see {@link InternalBoundary}). */
class InternalBoundaryTest {
  @Test
  void noClassOfThisModuleUsesEngineApiInternals() {
    InternalBoundary.assertNoInternalReferences(StageCache.class, InternalBoundaryTest.class);
  }
}
