package io.joblib4j.benchmarks;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Unmaps buffers at once (sun.misc.Unsafe#invokeCleaner): a benchmark that maps a GiB a few hundred
 * thousand times would otherwise hit the kernel's mapping limit before the GC unmaps anything. Both
 * mmap benchmarks pay for it, so they stay comparable.
 */
final class Unmap {
  private static final sun.misc.Unsafe UNSAFE;

  static {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      UNSAFE = (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private Unmap() {}

  static void unmap(ByteBuffer b) {
    UNSAFE.invokeCleaner(b);
  }
}
