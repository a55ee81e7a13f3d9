package io.joblib4j.internal.processes;

import io.joblib4j.MmapMode;
import io.joblib4j.array.ArrayMapping;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.Shapes;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.LoggerFactory;

/**
 * How the processes backend shares {@link NDArray}s. An NDArray serializes through a private
 * serial form (its {@code writeReplace}), which is what a stream's {@code replaceObject} then
 * sees; {@link #unwrap} gets the array back from it, so that an NDArray anywhere in a task's
 * arguments — not only as an argument itself — travels by file rather than by copy.
 */
final class NDArrays {
  private static final Field SERIAL_FORM_ARRAY = serialFormField();

  private NDArrays() {}

  /** The NDArray {@code o} stands for if it is an NDArray's serial form, else null. */
  static NDArray unwrap(Object o) {
    if (SERIAL_FORM_ARRAY == null || o.getClass() != SERIAL_FORM_ARRAY.getDeclaringClass()) {
      return null;
    }
    try {
      return (NDArray) SERIAL_FORM_ARRAY.get(o);
    } catch (IllegalAccessException e) {
      return null;
    }
  }

  /** Writes the elements of heap array {@code a} to {@code file} and describes it as a read-only mapping. */
  static ArrayMapping dump(NDArray a, Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      IOException[] failure = {null};
      ArrayAccess.get().forEachBuffer(a, b -> {
        ByteBuffer buf = b.duplicate();
        try {
          while (buf.hasRemaining() && failure[0] == null) {
            ch.write(buf);
          }
        } catch (IOException e) {
          failure[0] = e;
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
    }
    long[] shape = a.shape();
    return new ArrayMapping(file.toAbsolutePath().toString(), 0, a.dtype(), shape, Shapes.cStrides(shape),
        MmapMode.READ_ONLY);
  }

  private static Field serialFormField() {
    try {
      Field f = Class.forName(NDArray.class.getName() + "$SerialForm").getDeclaredField("array");
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LoggerFactory.getLogger(NDArrays.class).warn("the processes backend cannot recognize serialized NDArrays"
          + " ({}); they are copied to workers instead of shared", e.toString());
      return null;
    }
  }
}
