package io.joblib4j.spark.internal;

import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;

/**
 * Whether an argument is larger than the sharing threshold, decided as cheaply as possible:
 * primitive arrays and strings by their length, small immutable values never, anything else by
 * serializing it into a counter that stops as soon as the threshold is passed (so a 400 MB object
 * costs one threshold's worth of work to classify, not 400 MB).
 */
final class SizeEstimate {
  private SizeEstimate() {}

  static boolean exceeds(Object value, long limit) {
    if (alwaysSmall(value)) {
      return false;
    }
    long known = knownSize(value);
    if (known >= 0) {
      return known > limit;
    }
    CountingSink sink = new CountingSink(limit);
    try (ObjectOutputStream out = new ObjectOutputStream(sink)) {
      out.writeObject(value);
    } catch (LimitReached e) {
      return true;
    } catch (IOException | RuntimeException e) {
      // not serializable: leave it in the batch, whose own serialization reports the problem
      return false;
    }
    return false;
  }

  /** Values never shared, known without looking inside: null, boxed primitives, enums, classes. */
  static boolean alwaysSmall(Object value) {
    return value == null || value instanceof Number || value instanceof Boolean
        || value instanceof Character || value instanceof Enum<?> || value instanceof Class<?>;
  }

  /** The payload size of arrays of primitives and of strings, else -1. */
  static long knownSize(Object v) {
    if (v instanceof String s) {
      return 2L * s.length();
    }
    if (v instanceof byte[] a) {
      return a.length;
    }
    if (v instanceof boolean[] a) {
      return a.length;
    }
    if (v instanceof short[] a) {
      return 2L * a.length;
    }
    if (v instanceof char[] a) {
      return 2L * a.length;
    }
    if (v instanceof int[] a) {
      return 4L * a.length;
    }
    if (v instanceof float[] a) {
      return 4L * a.length;
    }
    if (v instanceof long[] a) {
      return 8L * a.length;
    }
    if (v instanceof double[] a) {
      return 8L * a.length;
    }
    return -1;
  }

  private static final class LimitReached extends IOException {
    LimitReached() {
      super("size limit reached");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // thrown to stop early, never shown: no stack trace to fill
    }
  }

  private static final class CountingSink extends OutputStream {
    private final long limit;
    private long count;

    CountingSink(long limit) {
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      add(1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      add(len);
    }

    private void add(long n) throws LimitReached {
      count += n;
      if (count > limit) {
        throw new LimitReached();
      }
    }
  }
}
