package io.joblib4j.internal.persist.npy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.LazyLogger;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.ByteStorage;
import io.joblib4j.internal.array.Shapes;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads one {@code .npy} array: from a file, into memory or mapped with no copy; or from a stream,
 * into memory, consuming exactly the array's bytes (so that several arrays {@code np.save}d one after
 * the other into one file are read one per call).
 */
final class NpyReader {
  private static final LazyLogger LOG = LazyLogger.of(NpyReader.class);

  private NpyReader() {}

  /** The array in {@code file}, open as {@code ch}: mapped in {@code options}' mmap mode, else read. */
  static NDArray load(FileChannel ch, Path file, LoadOptions options) throws IOException {
    String source = file.toString();
    long size = ch.size();
    long[] at = {0};
    NpyHeader h = NpyHeader.read(n -> {
      ByteBuffer b = ByteBuffer.allocate(n);
      while (b.hasRemaining()) {
        if (ch.read(b, at[0] + b.position()) < 0) {
          throw new EOFException();
        }
      }
      at[0] += n;
      return b.array();
    }, size, source);
    long bytes = h.dataBytes();
    long extra = size - h.dataOffset() - bytes;
    if (extra > 0) {
      throw new CorruptFileException(source, extra + " bytes follow the array's data: numpy writes one array"
          + " per .npy file. If several arrays were saved one after the other into this file (np.save"
          + " called repeatedly on one open file), read them one by one from a stream: Joblib.load(in) per"
          + " array, as np.load(f) does");
    }
    MmapMode mode = options.mmapMode().orElse(null);
    if (mode != null && h.descr().order() == ByteOrder.BIG_ENDIAN) {
      if (mode == MmapMode.READ_WRITE) {
        throw new IllegalArgumentException(source + ": holds big-endian numpy data ('"
            + h.descr().toDescr() + "'), which cannot be mapped READ_WRITE: NDArray elements are"
            + " little-endian, so a mapping would read swapped bytes and writes could not reach the file as"
            + " numpy reads it. Load it in memory or READ_ONLY (a byte-swapped copy), or save it"
            + " little-endian in numpy (a.astype('" + h.descr().toDescr().replace('>', '<') + "'))");
      }
      LOG.get().warn("{} holds big-endian numpy data ('{}'): it cannot be mapped (NDArray elements are"
          + " little-endian) and is loaded in memory, byte-swapped, instead (mmap mode {} ignored)", source,
          h.descr().toDescr(), mode);
      mode = null;
    }
    if (mode != null) {
      ByteStorage s = ByteStorage.map(ch, file, h.dataOffset(), bytes, mode);
      return create(s, h);
    }
    checkHeap(bytes, options, source);
    ByteStorage s = ByteStorage.heap(bytes);
    long pos = h.dataOffset();
    for (ByteBuffer seg : s.segments()) {
      ByteBuffer b = seg.duplicate();
      while (b.hasRemaining()) {
        int n = ch.read(b, pos);
        if (n < 0) {
          throw new CorruptFileException(source, "truncated numpy file: the file shrank while it was read");
        }
        pos += n;
      }
    }
    return create(swapIfBigEndian(s, h), h);
  }

  /**
   * The array at {@code in}'s position; {@code in} is left just after its data. Errors name {@code
   * source}.
   */
  static NDArray load(InputStream in, String source, LoadOptions options) throws IOException {
    NpyHeader h = NpyHeader.read(n -> {
      byte[] b = in.readNBytes(n);
      if (b.length < n) {
        throw new EOFException();
      }
      return b;
    }, Long.MAX_VALUE, source);
    return readData(in, h, source, options);
  }

  /** The array whose header is {@code h}, its data read from {@code in}. */
  static NDArray readData(InputStream in, NpyHeader h, String source, LoadOptions options) throws IOException {
    long bytes = h.dataBytes();
    checkHeap(bytes, options, source);
    ByteStorage s;
    try {
      // filled as the bytes arrive: a shape that lies costs what the stream really holds
      s = Shapes.readStorage(in, bytes);
    } catch (EOFException e) {
      throw new CorruptFileException(source, "truncated numpy data: the shape " + java.util.Arrays.toString(h.shape())
          + " of " + h.descr().dtype().numpyName() + " needs " + bytes + " bytes, and the " + e.getMessage());
    }
    return create(swapIfBigEndian(s, h), h);
  }

  private static void checkHeap(long bytes, LoadOptions options, String source) {
    if (bytes > options.maxHeapBytes()) {
      throw new CorruptFileException(source, "the numpy array has " + bytes + " bytes, more than a load may"
          + " build on the heap (" + options.maxHeapBytes() + " bytes, LoadOptions.maxHeapBytes, by default"
          + " half the maximum heap). Map it instead (Joblib.load(file, MmapMode.READ_ONLY)), or raise the"
          + " limit with LoadOptions.builder().maxHeapBytes(...) or -D" + LoadOptions.MAX_HEAP_BYTES_PROPERTY
          + "=<size>");
    }
  }

  private static NDArray create(ByteStorage s, NpyHeader h) {
    long[] shape = h.shape();
    long[] strides = h.fortranOrder() ? fortranStrides(shape) : Shapes.cStrides(shape);
    return ArrayAccess.get().create(s, h.descr().dtype(), shape, strides);
  }

  /** Strides in elements of an array stored in Fortran (column-major) order. */
  static long[] fortranStrides(long[] shape) {
    long[] st = new long[shape.length];
    long s = 1;
    for (int i = 0; i < shape.length; i++) {
      st[i] = s;
      s *= Math.max(shape[i], 1);
    }
    return st;
  }

  /** Reverses each element's bytes in place when the file's data is big-endian. */
  private static ByteStorage swapIfBigEndian(ByteStorage s, NpyHeader h) {
    int item = h.descr().dtype().itemSize();
    if (h.descr().order() != ByteOrder.BIG_ENDIAN || item == 1) {
      return s;
    }
    for (ByteBuffer seg : s.segments()) {
      int end = seg.limit() - seg.limit() % item;
      for (int i = 0; i < end; i += item) {
        switch (item) {
          case 2: seg.putShort(i, Short.reverseBytes(seg.getShort(i))); break;
          case 4: seg.putInt(i, Integer.reverseBytes(seg.getInt(i))); break;
          default: seg.putLong(i, Long.reverseBytes(seg.getLong(i)));
        }
      }
    }
    return s;
  }
}
