package io.joblib4j.internal.persist;

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
 * What the fuzz targets that load from files share: a fresh file per input (in memory where the
 * machine has {@code /dev/shm}), and reading every element of what loaded, then unmapping it at once
 * (truncating files again and again under thousands of mappings the collector has not freed made
 * each input take milliseconds).
 */
public final class FuzzFiles {
  private static final sun.misc.Unsafe UNSAFE = unsafe();
  private final String prefix;
  private final String suffix;
  private Path dir;
  private long n;

  /**
   * Files named {@code in-<n><suffix>} in a temporary folder named {@code <prefix>...}.
   *
   * @param prefix the folder's prefix
   * @param suffix the files' suffix
   */
  public FuzzFiles(String prefix, String suffix) {
    this.prefix = prefix;
    this.suffix = suffix;
  }

  /** A new file's path, in a folder made at the first call. */
  public Path newFile() throws IOException {
    if (dir == null) {
      Path shm = Path.of("/dev/shm");
      dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, prefix)
          : Files.createTempDirectory(prefix);
      dir.toFile().deleteOnExit();
    }
    return dir.resolve("in-" + n++ + suffix);
  }

  /** Reads every element of every array in {@code v} (through its mapping if it has one), then unmaps it. */
  public static void readAndUnmap(Object v) {
    if (v instanceof NDArray a) {
      if (a.size() > 0) {
        a.copy(); // reads every element, through the mapping if there is one
      }
      if (a.isMapped()) {
        for (ByteBuffer b : ArrayAccess.get().storage(a).segments()) {
          UNSAFE.invokeCleaner(b);
        }
      }
    } else if (v instanceof Collection<?> c) {
      c.forEach(FuzzFiles::readAndUnmap);
    } else if (v instanceof Map<?, ?> m) {
      m.values().forEach(FuzzFiles::readAndUnmap);
    } else if (v instanceof Object[] array) {
      for (Object o : array) {
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
