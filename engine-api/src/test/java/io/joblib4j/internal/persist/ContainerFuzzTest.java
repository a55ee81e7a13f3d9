package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import java.io.ByteArrayInputStream;

/**
 * Jazzer fuzz target for the container parser. In a normal build it replays the committed corpus
 * ({@code ContainerFuzzTestInputs/loadFailsOnlyWithTypedErrors/}: valid dumps under every codec,
 * and inputs a fuzzing session found interesting); {@code JAZZER_FUZZ=1} fuzzes for real.
 *
 * <p>The property: whatever the bytes, load returns a value or throws a {@link JoblibException}.
 * Anything else (OutOfMemoryError, StackOverflowError, NegativeArraySizeException, an unchecked
 * exception from a codec) is a finding. Limits are small so that the fuzzer cannot make us allocate
 * much even with lying lengths.
 */
class ContainerFuzzTest {
  private static final LoadOptions LIMITS =
      LoadOptions.builder().maxDecompressedBytes(16 << 20).maxDepth(64).build();

  @FuzzTest(maxDuration = "2m")
  void loadFailsOnlyWithTypedErrors(byte[] data) {
    try {
      Joblib.load(new ByteArrayInputStream(data), LIMITS);
    } catch (JoblibException expected) {
      // bad input, reported as such
    }
  }

  /**
   * The same property with every checksum repaired after mutation, so that the fuzzer explores the
   * record, allow-list and value decoders instead of stopping at the first CRC.
   */
  @FuzzTest(maxDuration = "2m")
  void decodeFailsOnlyWithTypedErrors(byte[] data) {
    try {
      Joblib.load(new ByteArrayInputStream(Checksums.fix(data)), LIMITS);
    } catch (JoblibException expected) {
      // bad input, reported as such
    }
  }
}
