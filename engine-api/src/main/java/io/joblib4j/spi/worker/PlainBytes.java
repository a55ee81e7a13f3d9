package io.joblib4j.spi.worker;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Byte streams over an array without locks, under the {@code DataOutputStream} and {@code
 * DataInputStream} of {@link PlainBatches} and {@link PlainResults}: those write and read an int as
 * four single bytes, and {@code ByteArrayOutputStream} and {@code ByteArrayInputStream} take a lock
 * for each (100,000 tiny tasks took half as long again through them).
 */
final class PlainBytes {
  private PlainBytes() {}

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
