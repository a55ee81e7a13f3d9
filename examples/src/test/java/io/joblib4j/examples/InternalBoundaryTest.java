package io.joblib4j.examples;

import io.joblib4j.testing.InternalBoundary;
import org.junit.jupiter.api.Test;

/** The examples use joblib4j as users do: its public API only (see {@link InternalBoundary}). */
class InternalBoundaryTest {
  @Test
  void noExampleUsesEngineApiInternals() {
    InternalBoundary.assertNoInternalReferences(Demo.class, InternalBoundaryTest.class);
  }
}
