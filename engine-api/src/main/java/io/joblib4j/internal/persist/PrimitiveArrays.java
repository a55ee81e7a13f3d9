package io.joblib4j.internal.persist;

import java.nio.ByteBuffer;

/** Converts Java primitive arrays to and from little-endian bytes, a buffer-full at a time. */
final class PrimitiveArrays {
  private PrimitiveArrays() {}

  /** The element type tag of a primitive array, or -1 if {@code a} is not one. */
  static int elementType(Object a) {
    if (a instanceof double[]) return Tags.E_DOUBLE;
    if (a instanceof long[]) return Tags.E_LONG;
    if (a instanceof int[]) return Tags.E_INT;
    if (a instanceof float[]) return Tags.E_FLOAT;
    if (a instanceof byte[]) return Tags.E_BYTE;
    if (a instanceof short[]) return Tags.E_SHORT;
    if (a instanceof char[]) return Tags.E_CHAR;
    if (a instanceof boolean[]) return Tags.E_BOOLEAN;
    return -1;
  }

  static int length(Object a) {
    return java.lang.reflect.Array.getLength(a);
  }

  static Object newArray(int type, int n) {
    switch (type) {
      case Tags.E_DOUBLE: return new double[n];
      case Tags.E_LONG: return new long[n];
      case Tags.E_INT: return new int[n];
      case Tags.E_FLOAT: return new float[n];
      case Tags.E_BYTE: return new byte[n];
      case Tags.E_SHORT: return new short[n];
      case Tags.E_CHAR: return new char[n];
      case Tags.E_BOOLEAN: return new boolean[n];
      default: throw new IllegalArgumentException("element type " + type);
    }
  }

  /** Puts elements {@code [off, off + n)} of {@code a} into {@code dst} (little-endian) and flips it. */
  static void toBytes(Object a, int off, int n, ByteBuffer dst) {
    dst.clear();
    if (a instanceof double[]) {
      dst.asDoubleBuffer().put((double[]) a, off, n);
      dst.limit(n * 8);
    } else if (a instanceof long[]) {
      dst.asLongBuffer().put((long[]) a, off, n);
      dst.limit(n * 8);
    } else if (a instanceof int[]) {
      dst.asIntBuffer().put((int[]) a, off, n);
      dst.limit(n * 4);
    } else if (a instanceof float[]) {
      dst.asFloatBuffer().put((float[]) a, off, n);
      dst.limit(n * 4);
    } else if (a instanceof byte[]) {
      dst.put((byte[]) a, off, n).flip();
    } else if (a instanceof short[]) {
      dst.asShortBuffer().put((short[]) a, off, n);
      dst.limit(n * 2);
    } else if (a instanceof char[]) {
      dst.asCharBuffer().put((char[]) a, off, n);
      dst.limit(n * 2);
    } else {
      boolean[] b = (boolean[]) a;
      for (int i = 0; i < n; i++) {
        dst.put((byte) (b[off + i] ? 1 : 0));
      }
      dst.flip();
    }
  }

  /**
   * Takes {@code n} elements from {@code src} (little-endian, positioned at them) into {@code a} at
   * {@code off}. Booleans must be 0 or 1; returns false if one is not.
   */
  static boolean fromBytes(ByteBuffer src, Object a, int off, int n) {
    if (a instanceof double[]) {
      src.asDoubleBuffer().get((double[]) a, off, n);
    } else if (a instanceof long[]) {
      src.asLongBuffer().get((long[]) a, off, n);
    } else if (a instanceof int[]) {
      src.asIntBuffer().get((int[]) a, off, n);
    } else if (a instanceof float[]) {
      src.asFloatBuffer().get((float[]) a, off, n);
    } else if (a instanceof byte[]) {
      src.duplicate().get((byte[]) a, off, n);
    } else if (a instanceof short[]) {
      src.asShortBuffer().get((short[]) a, off, n);
    } else if (a instanceof char[]) {
      src.asCharBuffer().get((char[]) a, off, n);
    } else {
      boolean[] b = (boolean[]) a;
      for (int i = 0; i < n; i++) {
        byte v = src.get(src.position() + i);
        if (v != 0 && v != 1) {
          return false;
        }
        b[off + i] = v == 1;
      }
    }
    return true;
  }
}
