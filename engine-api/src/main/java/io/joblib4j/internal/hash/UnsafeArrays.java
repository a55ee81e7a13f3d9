package io.joblib4j.internal.hash;

/**
 * Base offsets of primitive arrays, for hashing them in place through zero-allocation-hashing's
 * Unsafe access (module jdk.unsupported, no --add-opens needed) instead of copying them to bytes;
 * also the processes backend's digests of shared arrays.
 */
public final class UnsafeArrays {
  private UnsafeArrays() {}

  /**
   * The byte offset of element 0 in {@code array}, a primitive array.
   *
   * @param array a primitive array
   * @return its base offset for Unsafe access
   */
  @SuppressWarnings("removal")
  public static long baseOffset(Object array) {
    if (array instanceof double[]) return sun.misc.Unsafe.ARRAY_DOUBLE_BASE_OFFSET;
    if (array instanceof long[]) return sun.misc.Unsafe.ARRAY_LONG_BASE_OFFSET;
    if (array instanceof int[]) return sun.misc.Unsafe.ARRAY_INT_BASE_OFFSET;
    if (array instanceof float[]) return sun.misc.Unsafe.ARRAY_FLOAT_BASE_OFFSET;
    if (array instanceof byte[]) return sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET;
    if (array instanceof short[]) return sun.misc.Unsafe.ARRAY_SHORT_BASE_OFFSET;
    if (array instanceof char[]) return sun.misc.Unsafe.ARRAY_CHAR_BASE_OFFSET;
    if (array instanceof boolean[]) return sun.misc.Unsafe.ARRAY_BOOLEAN_BASE_OFFSET;
    throw new IllegalArgumentException("not a primitive array: " + array.getClass());
  }
}
