package io.joblib4j.internal.persist;

import io.joblib4j.internal.text.Wtf8;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** The object stream being read: verified OBJECTS payloads pulled from the reader on demand. */
final class ObjectIn {
  private final ContainerReader reader;
  private byte[] buf = new byte[0];
  private int pos;

  ObjectIn(ContainerReader reader) {
    this.reader = reader;
  }

  boolean atChunkEnd() {
    return pos == buf.length;
  }

  private void refill() throws IOException {
    do {
      buf = reader.nextObjects();
      pos = 0;
    } while (buf.length == 0);
  }

  int readByte() throws IOException {
    if (pos == buf.length) {
      refill();
    }
    return buf[pos++] & 0xFF;
  }

  int readShort() throws IOException {
    return readByte() | (readByte() << 8);
  }

  int readInt() throws IOException {
    if (buf.length - pos >= 4) {
      int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
      pos += 4;
      return v;
    }
    return readShort() | (readShort() << 16);
  }

  long readLong() throws IOException {
    return (readInt() & 0xFFFFFFFFL) | ((long) readInt() << 32);
  }

  long readVarLong() throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0) {
          break;
        }
        return v;
      }
    }
    throw reader.corrupt("malformed or too large length in the object stream");
  }

  /** A length that must fit an int (and so a Java array). */
  int readLength(String what) throws IOException {
    long n = readVarLong();
    if (n > Integer.MAX_VALUE - 8) {
      throw reader.corrupt(what + " of " + n + " is larger than Java allows");
    }
    return (int) n;
  }

  /**
   * Reads {@code n} bytes. Allocates up front only what the current chunk holds, so a lying length
   * fails at the end of the data having cost only the data.
   */
  byte[] readBytes(int n) throws IOException {
    if (buf.length - pos >= n) {
      byte[] b = java.util.Arrays.copyOfRange(buf, pos, pos + n);
      pos += n;
      return b;
    }
    ByteArrayOutputStream acc = new ByteArrayOutputStream(Math.min(n, 1 << 20));
    int left = n;
    while (left > 0) {
      if (pos == buf.length) {
        refill();
      }
      int k = Math.min(left, buf.length - pos);
      acc.write(buf, pos, k);
      pos += k;
      left -= k;
    }
    return acc.toByteArray();
  }

  String readString() throws IOException {
    int n = readLength("a string");
    String s;
    if (buf.length - pos >= n) {
      s = Wtf8.decode(buf, pos, n);
      pos += n;
    } else {
      byte[] b = readBytes(n);
      s = Wtf8.decode(b, 0, n);
    }
    if (s == null) {
      throw reader.corrupt("a string is not valid UTF-8");
    }
    return s;
  }
}
