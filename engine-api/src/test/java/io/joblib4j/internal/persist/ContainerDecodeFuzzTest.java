package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import java.io.ByteArrayInputStream;

/**
 * Jazzer fuzz target: as {@link ContainerLoadFuzzTest}, with every checksum repaired after mutation,
 * so that the fuzzer explores the record, allow-list and value decoders (and Kryo and Java
 * serialization behind them) instead of stopping at the first CRC.
 */
class ContainerDecodeFuzzTest {
  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void decodeFailsOnlyWithTypedErrors(byte[] data) {
    try {
      Joblib.load(new ByteArrayInputStream(Checksums.fix(data)), FuzzLimits.LIMITS);
    } catch (JoblibException expected) {
      // bad input, reported as such
    }
  }
}
