package io.joblib4j.internal.persist.npy;

import io.joblib4j.MmapMode;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.ArrayFiles;
import io.joblib4j.internal.array.ByteStorage;
import io.joblib4j.internal.array.Shapes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Writes an {@link NDArray} as numpy's {@code .npy}: the header {@link NpyHeader#encode} makes, then
 * the raw little-endian elements, in Fortran order when the array is a Fortran-ordered one (as a
 * {@code .npy} saved from a Fortran array loads), else in C order.
 */
final class NpyWriter {
  private NpyWriter() {}

  /** Calls {@code sink} with the header's bytes, then the data's, of {@code a} as a {@code .npy}. */
  static void write(NDArray a, Consumer<ByteBuffer> sink) {
    boolean fortran = isFortranOnly(a);
    sink.accept(ByteBuffer.wrap(NpyHeader.encode(a.dtype(), fortran, a.shape())));
    if (fortran) {
      ByteStorage s = ArrayAccess.get().storage(a);
      long off = ArrayAccess.get().byteOffset(a);
      long len = a.nbytes();
      while (len > 0) {
        int n = (int) Math.min(len, s.bytesInSegment(off));
        sink.accept(s.slice(off, n));
        off += n;
        len -= n;
      }
    } else {
      ArrayAccess.get().forEachBuffer(a, sink);
    }
  }

  /** Whether {@code a}'s elements are one run in Fortran order and not in C order. */
  static boolean isFortranOnly(NDArray a) {
    if (a.size() <= 1 || a.isContiguous()) {
      return false;
    }
    return Arrays.equals(ArrayAccess.get().strides(a), NpyReader.fortranStrides(a.shape()));
  }

  /** Writes {@code a} to {@code ch} from its position. */
  static void write(NDArray a, FileChannel ch) throws IOException {
    IOException[] failure = {null};
    write(a, b -> {
      try {
        while (b.hasRemaining() && failure[0] == null) {
          ch.write(b);
        }
      } catch (IOException e) {
        failure[0] = e;
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
  }

  /**
   * Creates {@code file} as a zero-filled {@code .npy} of {@code dtype} and {@code shape}, in C
   * order, its space reserved as {@link ArrayFiles} reserves it, and maps its data READ_WRITE.
   */
  static NDArray createMapped(Path file, DType dtype, long[] shape) {
    long[] s = Shapes.check(shape);
    long bytes = Shapes.bytes(s, dtype);
    byte[] header = NpyHeader.encode(dtype, false, s);
    try (FileChannel ch = ArrayFiles.create(file, header.length + bytes)) {
      ByteBuffer b = ByteBuffer.wrap(header);
      while (b.hasRemaining()) {
        ch.write(b, b.position());
      }
      return ArrayAccess.get().create(ByteStorage.map(ch, file, header.length, bytes, MmapMode.READ_WRITE), dtype, s);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create mapped array " + file + ": " + e.getMessage(), e);
    }
  }
}
