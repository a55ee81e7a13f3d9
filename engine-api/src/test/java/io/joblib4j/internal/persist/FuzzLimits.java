package io.joblib4j.internal.persist;

import io.joblib4j.LoadOptions;

/**
 * The load options of the fuzz targets: small limits, so that no input can make a load allocate
 * much even with lying lengths, in a fuzzing JVM whose heap is capped (engine-api's pom).
 */
final class FuzzLimits {
  static final LoadOptions LIMITS = LoadOptions.builder().maxDecompressedBytes(16 << 20).maxHeapBytes(64 << 20)
      .maxDepth(64).build();

  private FuzzLimits() {}
}
