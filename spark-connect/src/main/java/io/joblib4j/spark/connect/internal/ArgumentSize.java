package io.joblib4j.spark.connect.internal;

import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.lang.reflect.Array;

/**
 * Whether a task argument is over the sharing threshold: arrays of primitives, strings and
 * NDArrays by their length; values that are always small never; anything else by serializing it
 * into a sink that gives up once past the threshold (a 400 MB object costs one threshold's work).
 */
final class ArgumentSize {
  private ArgumentSize() {}

  static boolean over(Object value, long threshold) {
    if (value == null || value instanceof Number || value instanceof Boolean || value instanceof Character
        || value instanceof Enum<?> || value instanceof Class<?>) {
      return false;
    }
    long length = lengthOf(value);
    if (length >= 0) {
      return length > threshold;
    }
    Sink sink = new Sink(threshold);
    try (ObjectOutputStream out = new ObjectOutputStream(sink)) {
      out.writeObject(value);
      return false;
    } catch (Full full) {
      return true;
    } catch (IOException | RuntimeException unserializable) {
      return false; // left in the batch, whose own serialization names the problem
    }
  }

  /** The bytes of a value whose size is known without serializing it, else -1. */
  static long lengthOf(Object value) {
    if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
      return 8;
    }
    if (value instanceof String s) {
      return 2L * s.length();
    }
    if (value instanceof NDArray a) {
      return a.nbytes();
    }
    Class<?> c = value.getClass().getComponentType();
    if (c == null || !c.isPrimitive()) {
      return -1;
    }
    int width = c == byte.class || c == boolean.class ? 1 : c == short.class || c == char.class ? 2
        : c == int.class || c == float.class ? 4 : 8;
    return (long) width * Array.getLength(value);
  }

  /** Counts bytes and stops the serialization once past the threshold. */
  private static final class Sink extends OutputStream {
    private final long threshold;
    private long written;

    Sink(long threshold) {
      this.threshold = threshold;
    }

    @Override
    public void write(int b) throws Full {
      add(1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws Full {
      add(len);
    }

    private void add(long n) throws Full {
      written += n;
      if (written > threshold) {
        throw new Full();
      }
    }
  }

  private static final class Full extends IOException {
    @java.io.Serial private static final long serialVersionUID = 1L;

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // only stops the serialization: no trace is ever shown
    }
  }
}
