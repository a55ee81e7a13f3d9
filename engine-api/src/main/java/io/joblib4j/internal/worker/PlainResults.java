package io.joblib4j.internal.worker;

import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.WireFormat;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A batch's results written without Java serialization when every one is {@link
 * TaggedValues#isPlain plain}, for a parent that loads the same class files ({@link
 * WireFormat#SAME_CLASS_FILES}); see {@link PlainBatches} for why. The first bytes tell the parent
 * which it got.
 */
final class PlainResults {
  /** The results' first bytes ({@link PlainBytes#writeHeader}). */
  private static final int MAGIC = 'J' << 8 | 'R';
  /** The most bytes of modified UTF-8 a char takes. */
  private static final int BYTES_PER_CHAR = 3;

  private PlainResults() {}

  /** Whether {@code bytes} are results {@link #encode} wrote. */
  static boolean isPlain(byte[] bytes) {
    return PlainBytes.startsWith(bytes, MAGIC);
  }

  /**
   * The bytes of {@code values}, or null when one is not plain, the replacer would replace one, or
   * they might take more than {@code limit} bytes (Java serialization writes them then, and reports
   * what is too large).
   */
  static byte[] encode(Object[] values, ArgumentSharer.Replacer replacer, long limit) throws IOException {
    long bound = 7;
    for (Object v : values) {
      if (!TaggedValues.isPlain(v) || v != null && replacer.replace(v) != v) {
        return null;
      }
      bound += v instanceof String s ? 3 + (long) BYTES_PER_CHAR * s.length() : 9;
    }
    if (bound > limit) {
      return null;
    }
    PlainBytes.Out bytes = new PlainBytes.Out((int) Math.min(bound, 1 << 16));
    DataOutputStream out = new DataOutputStream(bytes);
    PlainBytes.writeHeader(out, MAGIC, values.length);
    for (Object v : values) {
      TaggedValues.writePlain(out, v);
    }
    return bytes.toByteArray();
  }

  /** The results {@link #encode} wrote. */
  static Object[] decode(byte[] bytes) throws IOException {
    DataInputStream in = new DataInputStream(new PlainBytes.In(bytes));
    Object[] values = new Object[PlainBytes.readHeader(in, MAGIC, bytes.length, "results")];
    for (int i = 0; i < values.length; i++) {
      values[i] = TaggedValues.readPlain(in);
    }
    PlainBytes.expectEnd(in, "results");
    return values;
  }
}
