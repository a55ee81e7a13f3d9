package io.joblib4j.spi.worker;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;

/**
 * A batch's results written without Java serialization when every one is {@link
 * TaggedValues#isPlain plain}, for a parent that loads the same class files ({@link
 * WireFormat#SAME_CLASS_FILES}); see {@link PlainBatches} for why. The first bytes tell the parent
 * which it got.
 */
final class PlainResults {
  /** The results' first bytes: no Java serialization stream starts so (those start 0xACED). */
  private static final int MAGIC = 'J' << 8 | 'R';
  private static final int VERSION = 1;
  /** The most bytes of modified UTF-8 a char takes. */
  private static final int BYTES_PER_CHAR = 3;

  private PlainResults() {}

  /** Whether {@code bytes} are results {@link #encode} wrote. */
  static boolean isPlain(byte[] bytes) {
    return bytes.length >= 3 && ((bytes[0] & 0xff) << 8 | bytes[1] & 0xff) == MAGIC;
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
    out.writeShort(MAGIC);
    out.writeByte(VERSION);
    out.writeInt(values.length);
    for (Object v : values) {
      TaggedValues.writePlain(out, v);
    }
    return bytes.toByteArray();
  }

  /** The results {@link #encode} wrote. */
  static Object[] decode(byte[] bytes) throws IOException {
    DataInputStream in = new DataInputStream(new PlainBytes.In(bytes));
    if (in.readUnsignedShort() != MAGIC || in.readUnsignedByte() != VERSION) {
      throw new StreamCorruptedException("not plain results of this version");
    }
    int n = in.readInt();
    if (n < 0 || n > bytes.length) { // a value takes at least its tag: a lying count is not allocated
      throw new StreamCorruptedException(n + " plain results in " + bytes.length + " bytes");
    }
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      values[i] = TaggedValues.readPlain(in);
    }
    if (in.available() != 0) {
      throw new StreamCorruptedException(in.available() + " bytes after plain results");
    }
    return values;
  }
}
