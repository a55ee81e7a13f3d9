package io.joblib4j.internal.hash;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian byte copies of primitive arrays, for big-endian machines and for SHA-256. */
final class LittleEndian {
  private LittleEndian() {}

  static ByteBuffer copy(Object a) {
    return copy(a, 0, java.lang.reflect.Array.getLength(a));
  }

  /** Elements {@code [off, off + n)} of {@code a} as a flipped little-endian buffer. */
  static ByteBuffer copy(Object a, int off, int n) {
    int size = a instanceof double[] || a instanceof long[] ? 8
        : a instanceof int[] || a instanceof float[] ? 4 : a instanceof short[] || a instanceof char[] ? 2 : 1;
    ByteBuffer b = ByteBuffer.allocate(n * size).order(ByteOrder.LITTLE_ENDIAN);
    if (a instanceof double[]) b.asDoubleBuffer().put((double[]) a, off, n);
    else if (a instanceof long[]) b.asLongBuffer().put((long[]) a, off, n);
    else if (a instanceof int[]) b.asIntBuffer().put((int[]) a, off, n);
    else if (a instanceof float[]) b.asFloatBuffer().put((float[]) a, off, n);
    else if (a instanceof short[]) b.asShortBuffer().put((short[]) a, off, n);
    else if (a instanceof char[]) b.asCharBuffer().put((char[]) a, off, n);
    else if (a instanceof byte[]) b.put((byte[]) a, off, n).flip();
    else {
      boolean[] z = (boolean[]) a;
      for (int i = 0; i < n; i++) {
        b.put((byte) (z[off + i] ? 1 : 0));
      }
      b.flip();
    }
    return b;
  }
}
