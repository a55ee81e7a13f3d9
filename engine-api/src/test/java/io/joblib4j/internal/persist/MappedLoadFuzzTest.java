package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

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
  private static final sun.misc.Unsafe UNSAFE = unsafe();
  private static Path dir;
  private static long n;

  private static Path newFile() throws IOException {
    if (dir == null) {
      Path shm = Path.of("/dev/shm");
      dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "jl4j-fuzz-")
          : Files.createTempDirectory("jl4j-fuzz-");
      dir.toFile().deleteOnExit();
    }
    return dir.resolve("in-" + n++ + ".jl4j");
  }

  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "15m")
  void mappedLoadFailsOnlyWithTypedErrors(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    Path f = Files.write(newFile(), Checksums.fix(java.util.Arrays.copyOfRange(data, 1, data.length)));
    try {
      Object v = Joblib.load(f, (data[0] & 1) == 0 ? READ_ONLY : COPY_ON_WRITE);
      readAndUnmap(v);
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
        a.copy(); // reads every element through the mapping
      }
      if (a.isMapped()) {
        for (ByteBuffer b : ArrayAccess.get().storage(a).segments()) {
          UNSAFE.invokeCleaner(b);
        }
      }
    } else if (v instanceof Collection) {
      ((Collection<?>) v).forEach(MappedLoadFuzzTest::readAndUnmap);
    } else if (v instanceof Map) {
      ((Map<?, ?>) v).values().forEach(MappedLoadFuzzTest::readAndUnmap);
    } else if (v instanceof Object[]) {
      for (Object o : (Object[]) v) {
        readAndUnmap(o);
      }
    }
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
