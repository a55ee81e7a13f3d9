package io.joblib4j.internal.processes;

import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a primitive array's elements to a file and reads them back into a new array, in the
 * machine's byte order (both ends run on the same machine). The parent writes through a small
 * direct buffer: on tmpfs, {@code write} is faster than first-touching a fresh mapping. The worker
 * maps the file and copies from the mapping, which costs one memory copy and no system calls per
 * chunk.
 */
final class SharedArrayFiles {
  private static final int CHUNK = 4 << 20;

  private SharedArrayFiles() {}

  /** Bytes per element of {@code elementType}. */
  static int elementSize(Class<?> elementType) {
    if (elementType == double.class || elementType == long.class) {
      return 8;
    }
    if (elementType == float.class || elementType == int.class) {
      return 4;
    }
    if (elementType == short.class || elementType == char.class) {
      return 2;
    }
    return 1; // byte, boolean
  }

  /** The bytes of the elements of primitive array {@code array}. */
  static long byteSize(Object array) {
    return (long) Array.getLength(array) * elementSize(array.getClass().getComponentType());
  }

  static void write(Object array, FileChannel ch) throws IOException {
    Class<?> type = array.getClass().getComponentType();
    int size = elementSize(type);
    int n = Array.getLength(array);
    ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.nativeOrder());
    int perChunk = CHUNK / size;
    for (int from = 0; from < n; from += perChunk) {
      int count = Math.min(perChunk, n - from);
      buf.clear();
      put(buf, array, type, from, count);
      buf.position(0).limit(count * size);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
  }

  static Object read(Path file, Class<?> type, int length) throws IOException {
    return copyOf(map(file, type, length), type, length);
  }

  /** A new array of {@code length} {@code type}s holding the elements of {@code maps} ({@link #map}). */
  static Object copyOf(List<ByteBuffer> maps, Class<?> type, int length) {
    Object array = Array.newInstance(type, length);
    copyInto(array, maps);
    return array;
  }

  /**
   * The file's elements as read-only mappings of at most ~2 GiB each, in order; a worker that keeps a
   * copy across calls keeps these too, so that refreshing the copy costs one memory copy and no page
   * faults.
   */
  static List<ByteBuffer> map(Path file, Class<?> type, int length) throws IOException {
    long bytes = (long) length * elementSize(type);
    List<ByteBuffer> maps = new ArrayList<>(1);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      if (ch.size() < bytes) {
        throw new IOException("shared array file " + file + " holds " + ch.size() + " bytes, "
            + bytes + " expected: it was truncated or replaced while the call ran");
      }
      int size = elementSize(type);
      int perMap = (Integer.MAX_VALUE / 8 * 8) / size; // elements per mapping of at most ~2 GiB
      for (int from = 0; from < length; from += perMap) {
        int count = Math.min(perMap, length - from);
        MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, (long) from * size, (long) count * size);
        maps.add(map.order(ByteOrder.nativeOrder()));
      }
    }
    return maps;
  }

  /** Copies the elements of {@code maps} ({@link #map}) into {@code array}, overwriting all of it. */
  static void copyInto(Object array, List<ByteBuffer> maps) {
    Class<?> type = array.getClass().getComponentType();
    int from = 0;
    for (ByteBuffer map : maps) {
      int count = map.capacity() / elementSize(type);
      get(map.duplicate().order(ByteOrder.nativeOrder()), array, type, from, count);
      from += count;
    }
  }

  private static void put(ByteBuffer buf, Object a, Class<?> t, int from, int n) {
    if (t == double.class) {
      buf.asDoubleBuffer().put((double[]) a, from, n);
    } else if (t == long.class) {
      buf.asLongBuffer().put((long[]) a, from, n);
    } else if (t == float.class) {
      buf.asFloatBuffer().put((float[]) a, from, n);
    } else if (t == int.class) {
      buf.asIntBuffer().put((int[]) a, from, n);
    } else if (t == short.class) {
      buf.asShortBuffer().put((short[]) a, from, n);
    } else if (t == char.class) {
      buf.asCharBuffer().put((char[]) a, from, n);
    } else if (t == byte.class) {
      buf.put((byte[]) a, from, n);
    } else {
      boolean[] z = (boolean[]) a;
      for (int i = 0; i < n; i++) {
        buf.put(i, (byte) (z[from + i] ? 1 : 0));
      }
    }
  }

  private static void get(ByteBuffer buf, Object a, Class<?> t, int from, int n) {
    if (t == double.class) {
      buf.asDoubleBuffer().get((double[]) a, from, n);
    } else if (t == long.class) {
      buf.asLongBuffer().get((long[]) a, from, n);
    } else if (t == float.class) {
      buf.asFloatBuffer().get((float[]) a, from, n);
    } else if (t == int.class) {
      buf.asIntBuffer().get((int[]) a, from, n);
    } else if (t == short.class) {
      buf.asShortBuffer().get((short[]) a, from, n);
    } else if (t == char.class) {
      buf.asCharBuffer().get((char[]) a, from, n);
    } else if (t == byte.class) {
      buf.get((byte[]) a, from, n);
    } else {
      boolean[] z = (boolean[]) a;
      for (int i = 0; i < n; i++) {
        z[from + i] = buf.get(i) != 0;
      }
    }
  }
}
