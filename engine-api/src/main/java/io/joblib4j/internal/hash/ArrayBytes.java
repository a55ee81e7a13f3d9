package io.joblib4j.internal.hash;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The little-endian bytes of primitive arrays, copied into a caller's {@code byte[]}: what the
 * xxHash3 chunk digests and the processes backend's array digests read. Bulk copies through a
 * little-endian {@link ByteBuffer} view (a memory copy on little-endian machines) replace reading
 * the array in place through {@code sun.misc.Unsafe}, whose memory access warns from Java 24 on
 * (JEP 471/498) and is to be removed.
 */
public final class ArrayBytes {
  private ArrayBytes() {}

  /**
   * The size in bytes of one element of {@code array}.
   *
   * @param array a primitive array
   * @return 8, 4, 2 or 1
   */
  public static int elementSize(Object array) {
    if (array instanceof double[] || array instanceof long[]) return 8;
    if (array instanceof int[] || array instanceof float[]) return 4;
    if (array instanceof short[] || array instanceof char[]) return 2;
    if (array instanceof byte[] || array instanceof boolean[]) return 1;
    throw new IllegalArgumentException("not a primitive array: " + array.getClass());
  }

  /**
   * Copies {@code length} bytes of {@code array}'s little-endian content, from byte {@code from},
   * to {@code into[at..]}; a boolean is one byte, 0 or 1.
   *
   * @param array a primitive array
   * @param from the first byte, a multiple of the element size
   * @param length how many bytes, a multiple of the element size
   * @param into where the bytes go
   * @param at the index in {@code into} of the first byte
   */
  public static void copyLittleEndian(Object array, long from, int length, byte[] into, int at) {
    int size = elementSize(array);
    if (from % size != 0 || length % size != 0) {
      throw new IllegalArgumentException("byte range " + from + "+" + length + " splits an element of " + size);
    }
    int first = (int) (from / size);
    int n = length / size;
    if (array instanceof byte[]) {
      System.arraycopy((byte[]) array, first, into, at, n);
      return;
    }
    if (array instanceof boolean[]) {
      boolean[] z = (boolean[]) array;
      for (int i = 0; i < n; i++) {
        into[at + i] = (byte) (z[first + i] ? 1 : 0);
      }
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(into, at, length).slice().order(ByteOrder.LITTLE_ENDIAN);
    if (array instanceof double[]) b.asDoubleBuffer().put((double[]) array, first, n);
    else if (array instanceof long[]) b.asLongBuffer().put((long[]) array, first, n);
    else if (array instanceof int[]) b.asIntBuffer().put((int[]) array, first, n);
    else if (array instanceof float[]) b.asFloatBuffer().put((float[]) array, first, n);
    else if (array instanceof short[]) b.asShortBuffer().put((short[]) array, first, n);
    else b.asCharBuffer().put((char[]) array, first, n);
  }

  /**
   * {@code words} as little-endian bytes.
   *
   * @param words the longs
   * @return 8 bytes per long
   */
  public static byte[] littleEndian(long[] words) {
    byte[] out = new byte[8 * words.length];
    copyLittleEndian(words, 0, out.length, out, 0);
    return out;
  }
}
