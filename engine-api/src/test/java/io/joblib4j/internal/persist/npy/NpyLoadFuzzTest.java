package io.joblib4j.internal.persist.npy;

import io.joblib4j.internal.persist.FuzzFiles;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Jazzer fuzz target: numpy's files, whatever the bytes. The input's first byte picks how the rest
 * is loaded: from a stream (a {@code .npy} only), or from a file (a {@code .npy} or a {@code .npz}
 * zip) read into memory or mapped READ_ONLY. In {@code mvn verify} it replays its inputs ({@code
 * NpyLoadFuzzTestInputs/npyLoadFailsOnlyWithTypedErrors/}: numpy's own files of each dtype, order
 * and version, a {@code .npz} stored and deflated, an object array, and what fuzzing found) with the
 * other tests; the {@code fuzz} module then fuzzes it for a million inputs.
 *
 * <p>The property: load returns an NDArray (or a map of them) whose every element can be read, or
 * throws a {@link JoblibException}. Anything else (an OutOfMemoryError from a lying shape, an
 * IllegalArgumentException from a mapping outside the file, the zip reader's unchecked exceptions)
 * is a finding.
 */
class NpyLoadFuzzTest {
  /** Small limits, so that no input can make a load allocate much even with lying lengths. */
  private static final LoadOptions HEAP = LoadOptions.builder().maxDecompressedBytes(16 << 20)
      .maxHeapBytes(64 << 20).build();
  private static final LoadOptions MAPPED = HEAP.toBuilder().mmapMode(MmapMode.READ_ONLY).build();
  private static final FuzzFiles FILES = new FuzzFiles("jl4j-npy-fuzz-", ".npy");


  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void npyLoadFailsOnlyWithTypedErrors(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    byte[] rest = Arrays.copyOfRange(data, 1, data.length);
    int how = data[0] & 3;
    if (how == 0) {
      try {
        FuzzFiles.readAndUnmap(Joblib.load(new ByteArrayInputStream(rest), HEAP));
      } catch (JoblibException expected) {
        // bad input, reported as such
      }
      return;
    }
    Path f = Files.write(FILES.newFile(), rest);
    try {
      FuzzFiles.readAndUnmap(Joblib.load(f, how == 1 ? HEAP : MAPPED));
    } catch (JoblibException expected) {
      // bad input, reported as such
    } finally {
      Files.delete(f);
    }
  }
}
