package io.joblib4j.internal.array;

import io.joblib4j.array.DType;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Shape arithmetic for {@link io.joblib4j.array.NDArray}, with overflow and range checks. */
public final class Shapes {
  /** numpy's limit is 64; 32 keeps hostile headers small. */
  public static final int MAX_DIMS = 32;

  private Shapes() {}

  /** A copy of {@code shape} after checking every axis is non-negative and the size fits a long. */
  public static long[] check(long[] shape) {
    if (shape.length > MAX_DIMS) {
      throw new IllegalArgumentException(shape.length + " dimensions; at most " + MAX_DIMS + " are supported");
    }
    long[] s = shape.clone();
    for (long d : s) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(s));
      }
    }
    size(s);
    return s;
  }

  /** Number of elements. */
  public static long size(long[] shape) {
    long n = 1;
    for (long d : shape) {
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has too many elements");
      }
    }
    return n;
  }

  /** Bytes of {@code shape} elements of {@code dtype}. */
  public static long bytes(long[] shape, DType dtype) {
    try {
      return Math.multiplyExact(size(shape), (long) dtype.itemSize());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has too many bytes");
    }
  }

  /** C-order strides in elements. */
  public static long[] cStrides(long[] shape) {
    long[] st = new long[shape.length];
    long s = 1;
    for (int i = shape.length - 1; i >= 0; i--) {
      st[i] = s;
      s *= Math.max(shape[i], 1);
    }
    return st;
  }

  /** Elements from the first to one past the last element of a view (0 if empty). */
  public static long spanElements(long[] shape, long[] strides) {
    long span = 1;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] == 0) {
        return 0;
      }
      if (strides[i] < 0) {
        throw new IllegalArgumentException("negative strides are not supported");
      }
      span += (shape[i] - 1) * strides[i];
    }
    return span;
  }

  /** The new shape for a reshape, resolving one -1. */
  public static long[] reshape(long[] old, long[] wanted, long size) {
    long[] s = wanted.clone();
    int unknown = -1;
    long known = 1;
    for (int i = 0; i < s.length; i++) {
      if (s[i] == -1 && unknown < 0) {
        unknown = i;
      } else if (s[i] < 0) {
        throw new IllegalArgumentException("bad shape " + Arrays.toString(wanted));
      } else {
        known *= s[i];
      }
    }
    if (unknown >= 0) {
      if (known == 0 || size % known != 0) {
        throw new IllegalArgumentException("cannot reshape " + Arrays.toString(old) + " to " + Arrays.toString(wanted));
      }
      s[unknown] = size / known;
    }
    if (size(check(s)) != size) {
      throw new IllegalArgumentException("cannot reshape an array of " + size + " elements "
          + Arrays.toString(old) + " to " + Arrays.toString(wanted));
    }
    return s;
  }

  public static void checkIndex(long i, long length, int axis) {
    if (i < 0 || i >= length) {
      throw new IndexOutOfBoundsException("index " + i + " out of range for axis " + axis + " of length " + length);
    }
  }

  /** Element offset of multi-index {@code idx}. */
  public static long offsetOf(long[] idx, long[] strides, long offset) {
    long e = offset;
    for (int i = 0; i < idx.length; i++) {
      e += idx[i] * strides[i];
    }
    return e;
  }

  /** Advances {@code idx} to the next C-order position. */
  public static void increment(long[] idx, long[] shape) {
    for (int i = idx.length - 1; i >= 0; i--) {
      if (++idx[i] < shape[i]) {
        return;
      }
      idx[i] = 0;
    }
  }

  /**
   * Reads exactly {@code bytes} bytes from {@code in} into heap storage, allocating 16 MiB segments
   * only as the data arrives: a stream that lies about its length costs at most what it really
   * holds, plus one segment.
   */
  public static ByteStorage readStorage(InputStream in, long bytes) throws IOException {
    final int shift = 24;
    List<ByteBuffer> segs = new ArrayList<>();
    long left = bytes;
    while (left > 0) {
      int n = (int) Math.min(left, 1L << shift);
      byte[] b = new byte[n];
      int got = in.readNBytes(b, 0, n);
      if (got < n) {
        throw new EOFException("array data ends after " + (bytes - left + got) + " of " + bytes + " bytes");
      }
      segs.add(ByteBuffer.wrap(b));
      left -= n;
    }
    return ByteStorage.ofSegments(segs.toArray(new ByteBuffer[0]), shift, bytes);
  }
}
