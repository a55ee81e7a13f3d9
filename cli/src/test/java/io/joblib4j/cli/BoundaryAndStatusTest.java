package io.joblib4j.cli;

import io.joblib4j.testing.ApiStatus;
import io.joblib4j.testing.InternalBoundary;
import org.junit.jupiter.api.Test;

/** The command line uses engine-api's public API and SPI only, and its public types say how stable they are. */
class BoundaryAndStatusTest {
  @Test
  void noClassOfThisModuleUsesEngineApiInternals() {
    InternalBoundary.assertNoInternalReferences(Main.class, BoundaryAndStatusTest.class);
  }

  @Test
  void everyPublicTypeHasAStatusAndTheInternalPackageIsInternal() {
    ApiStatus.assertEveryPublicTypeIsMarked(Main.class);
  }
}
