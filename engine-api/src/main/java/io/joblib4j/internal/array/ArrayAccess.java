package io.joblib4j.internal.array;

import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * What persistence and hashing need from {@link NDArray} without making it public API (the JDK's
 * "shared secrets" pattern): {@code NDArray} installs the implementation when it is initialised.
 */
public abstract class ArrayAccess {
  private static ArrayAccess instance;

  /** Called once, by NDArray's static initialiser. */
  public static void install(ArrayAccess access) {
    instance = access;
  }

  /** The implementation (initialising NDArray if needed). */
  public static ArrayAccess get() {
    if (instance == null) {
      try {
        Class.forName(NDArray.class.getName(), true, NDArray.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return instance;
  }

  /** The array's storage. */
  public abstract ByteStorage storage(NDArray a);

  /** Byte offset of the first element in its storage. */
  public abstract long byteOffset(NDArray a);

  /** Whether the elements are one C-ordered run of {@code nbytes} bytes from {@link #byteOffset}. */
  public abstract boolean isContiguous(NDArray a);

  /**
   * Feeds the element bytes in C order, as little-endian buffers of at most 1 GiB; do not write them.
   * The blocks of a lazily checked mapping are checked before their bytes are handed out.
   */
  public abstract void forEachBuffer(NDArray a, Consumer<ByteBuffer> sink);

  /** A C-ordered array over all of {@code storage}. */
  public abstract NDArray create(ByteStorage storage, DType dtype, long[] shape);

  /**
   * An array over {@code storage} with the given per-axis element strides from element 0 (a numpy
   * file in Fortran order is mapped with Fortran strides); the elements must lie in the storage.
   */
  public abstract NDArray create(ByteStorage storage, DType dtype, long[] shape, long[] strides);

  /** The array's per-axis strides in elements (a copy). */
  public abstract long[] strides(NDArray a);
}
