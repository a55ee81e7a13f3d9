package io.joblib4j.internal.memory;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Jazzer fuzz target: a cache entry's {@code metadata.json} and a function folder's {@code
 * function.json}, as another process (or a damaged disk) may have left them. The property: each
 * parses or throws an IOException, which the cache treats as an unusable entry; anything else would
 * escape into the memoized call.
 */
class MetadataJsonFuzzTest {
  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void metadataFailsOnlyWithIoErrors(byte[] data) {
    try {
      MetadataJson.readWithParts(new ByteArrayInputStream(data));
    } catch (IOException expected) {
      // unreadable: the entry is treated as missing
    }
    try {
      String[] recorded = MetadataJson.readFunction(new ByteArrayInputStream(data));
      if (recorded.length != 2 || recorded[0] == null || recorded[1] == null) {
        throw new AssertionError("readFunction must give two strings");
      }
    } catch (IOException expected) {
      // unreadable: treated as a function folder of unknown code
    }
  }
}
