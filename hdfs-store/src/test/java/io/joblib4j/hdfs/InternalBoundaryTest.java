package io.joblib4j.hdfs;

import io.joblib4j.testing.InternalBoundary;
import org.junit.jupiter.api.Test;

/** hdfs-store uses engine-api through its public API and SPI only (see {@link InternalBoundary}). */
class InternalBoundaryTest {
  @Test
  void noClassOfThisModuleUsesEngineApiInternals() {
    InternalBoundary.assertNoInternalReferences(ChunkedArray.class, InternalBoundaryTest.class);
  }
}
