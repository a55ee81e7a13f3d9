package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jazzer fuzz target: a memory-mapped load of a file holding the input (checksums repaired, so that
 * the mapping code is reached), read-only or copy-on-write by the input's first byte. The property:
 * a value or a {@link JoblibException}; and every mapped array of a value that loads can be read
 * to its last element (its mapping lies inside the file).
 *
 * <p>Each input gets a file of its own, in /dev/shm when there is one, deleted after the load, and
 * the mappings of a value that loaded are unmapped at once: truncating one file again and again
 * under thousands of mappings the collector has not freed yet made each input take milliseconds.
 */
class MappedLoadFuzzTest {
  private static final LoadOptions READ_ONLY = FuzzLimits.LIMITS.toBuilder().mmapMode(MmapMode.READ_ONLY).build();
  private static final LoadOptions COPY_ON_WRITE =
      FuzzLimits.LIMITS.toBuilder().mmapMode(MmapMode.COPY_ON_WRITE).build();
  private static final FuzzFiles FILES = new FuzzFiles("jl4j-fuzz-", ".jl4j");


  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void mappedLoadFailsOnlyWithTypedErrors(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    Path f = Files.write(FILES.newFile(), Checksums.fix(java.util.Arrays.copyOfRange(data, 1, data.length)));
    try {
      Object v = Joblib.load(f, (data[0] & 1) == 0 ? READ_ONLY : COPY_ON_WRITE);
      FuzzFiles.readAndUnmap(v);
    } catch (JoblibException expected) {
      // bad input, reported as such
    } finally {
      Files.delete(f);
    }
  }
}
