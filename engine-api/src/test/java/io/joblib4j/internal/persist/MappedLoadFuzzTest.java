package io.joblib4j.internal.persist;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;

/**
 * Jazzer fuzz target: a memory-mapped load of a file holding the input (checksums repaired, so that
 * the mapping code is reached), read-only or copy-on-write by the input's first byte. The property:
 * a value or a {@link JoblibException}; and every mapped array of a value that loads can be read
 * to its last element (its mapping lies inside the file).
 */
class MappedLoadFuzzTest {
  private static final LoadOptions READ_ONLY = FuzzLimits.LIMITS.toBuilder().mmapMode(MmapMode.READ_ONLY).build();
  private static final LoadOptions COPY_ON_WRITE =
      FuzzLimits.LIMITS.toBuilder().mmapMode(MmapMode.COPY_ON_WRITE).build();
  private static Path file;

  private static Path file() throws IOException {
    if (file == null) {
      file = Files.createTempFile("jl4j-fuzz-", ".jl4j");
      file.toFile().deleteOnExit();
    }
    return file;
  }

  @FuzzTest(maxExecutions = 1_000_000, maxDuration = "5m")
  void mappedLoadFailsOnlyWithTypedErrors(byte[] data) throws IOException {
    if (data.length == 0) {
      return;
    }
    Path f = file();
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(Checksums.fix(java.util.Arrays.copyOfRange(data, 1, data.length)));
      while (b.hasRemaining()) {
        ch.write(b);
      }
    }
    try {
      touch(Joblib.load(f, (data[0] & 1) == 0 ? READ_ONLY : COPY_ON_WRITE));
    } catch (JoblibException expected) {
      // bad input, reported as such
    }
  }

  private static void touch(Object v) {
    if (v instanceof NDArray) {
      NDArray a = (NDArray) v;
      if (a.size() > 0) {
        a.copy(); // reads every element through the mapping
      }
    } else if (v instanceof Collection) {
      ((Collection<?>) v).forEach(MappedLoadFuzzTest::touch);
    } else if (v instanceof Map) {
      ((Map<?, ?>) v).values().forEach(MappedLoadFuzzTest::touch);
    } else if (v instanceof Object[]) {
      for (Object o : (Object[]) v) {
        touch(o);
      }
    }
  }
}
