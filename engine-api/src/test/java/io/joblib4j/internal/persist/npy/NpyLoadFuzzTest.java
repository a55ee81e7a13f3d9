package io.joblib4j.internal.persist.npy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

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
  private static final sun.misc.Unsafe UNSAFE = unsafe();
  private static Path dir;
  private static long n;

  private static Path newFile() throws IOException {
    if (dir == null) {
      Path shm = Path.of("/dev/shm");
      dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "jl4j-npy-fuzz-")
          : Files.createTempDirectory("jl4j-npy-fuzz-");
      dir.toFile().deleteOnExit();
    }
    return dir.resolve("in-" + n++ + ".npy");
  }

  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void npyLoadFailsOnlyWithTypedErrors(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    byte[] rest = Arrays.copyOfRange(data, 1, data.length);
    int how = data[0] & 3;
    if (how == 0) {
      try {
        readAndUnmap(Joblib.load(new ByteArrayInputStream(rest), HEAP));
      } catch (JoblibException expected) {
        // bad input, reported as such
      }
      return;
    }
    Path f = Files.write(newFile(), rest);
    try {
      readAndUnmap(Joblib.load(f, how == 1 ? HEAP : MAPPED));
    } catch (JoblibException expected) {
      // bad input, reported as such
    } finally {
      Files.delete(f);
    }
  }

  private static void readAndUnmap(Object v) {
    if (v instanceof NDArray) {
      NDArray a = (NDArray) v;
      if (a.size() > 0) {
        a.copy(); // reads every element, through the mapping if there is one
      }
      if (a.isMapped()) {
        for (ByteBuffer b : ArrayAccess.get().storage(a).segments()) {
          UNSAFE.invokeCleaner(b);
        }
      }
    } else if (v instanceof Map) {
      ((Map<?, ?>) v).values().forEach(NpyLoadFuzzTest::readAndUnmap);
    }
    // a value of joblib4j's own format (the fuzzer may find one) is fine too
  }

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
