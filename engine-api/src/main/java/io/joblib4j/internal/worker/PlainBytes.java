package io.joblib4j.internal.worker;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.util.Arrays;

/**
 * Byte streams over an array without locks, under the {@code DataOutputStream} and {@code
 * DataInputStream} of {@link PlainBatches} and {@link PlainResults}: those write and read an int as
 * four single bytes, and {@code ByteArrayOutputStream} and {@code ByteArrayInputStream} take a lock
 * for each (100,000 tiny tasks took half as long again through them). Both forms start with the
 * same header: two magic bytes (never Java serialization's 0xACED), a version and a count of items.
 */
final class PlainBytes {
  private static final int VERSION = 1;

  private PlainBytes() {}

  /** Whether {@code bytes} start with {@code magic}. */
  static boolean startsWith(byte[] bytes, int magic) {
    return bytes.length >= 3 && ((bytes[0] & 0xff) << 8 | bytes[1] & 0xff) == magic;
  }

  static void writeHeader(DataOutput out, int magic, int count) throws IOException {
    out.writeShort(magic);
    out.writeByte(VERSION);
    out.writeInt(count);
  }

  /**
   * The count of a header {@link #writeHeader} wrote, of at most one item per byte of the {@code
   * length} bytes: each item takes at least one, so a lying count is refused, not allocated.
   */
  static int readHeader(DataInput in, int magic, int length, String items) throws IOException {
    if (in.readUnsignedShort() != magic || in.readUnsignedByte() != VERSION) {
      throw new StreamCorruptedException("not plain " + items + " of this version");
    }
    int n = in.readInt();
    if (n < 0 || n > length) {
      throw new StreamCorruptedException(n + " " + items + " in " + length + " plain bytes");
    }
    return n;
  }

  /** Refuses bytes left after the form. */
  static void expectEnd(DataInputStream in, String items) throws IOException {
    if (in.available() != 0) {
      throw new StreamCorruptedException(in.available() + " bytes after plain " + items);
    }
  }

  /** A growing array of the bytes written. */
  static final class Out extends OutputStream {
    private byte[] buf;
    private int count;

    Out(int initialSize) {
      buf = new byte[Math.max(16, initialSize)];
    }

    @Override
    public void write(int b) {
      if (count == buf.length) {
        grow(1);
      }
      buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (len > buf.length - count) {
        grow(len);
      }
      System.arraycopy(b, off, buf, count, len);
      count += len;
    }

    private void grow(int more) {
      // an OutOfMemoryError past 2 GiB, as ByteArrayOutputStream: Java serialization reports it then
      buf = Arrays.copyOf(buf, Math.toIntExact(Math.max((long) count + more, 2L * buf.length)));
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, count);
    }
  }

  /** The bytes of an array, read once. */
  static final class In extends InputStream {
    private final byte[] buf;
    private int pos;

    In(byte[] buf) {
      this.buf = buf;
    }

    @Override
    public int read() {
      return pos < buf.length ? buf[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      int n = Math.min(len, buf.length - pos);
      if (n <= 0) {
        return -1;
      }
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return buf.length - pos;
    }
  }
}
