package io.joblib4j.internal.persist;

import java.io.IOException;
import io.joblib4j.internal.text.Wtf8;

/** The object stream being written: bytes buffered and flushed as OBJECTS records of 1 MiB. */
final class ObjectOut {
  private final ContainerWriter writer;
  private final byte[] buf = new byte[Format.OBJECT_CHUNK];
  private int n;

  ObjectOut(ContainerWriter writer) {
    this.writer = writer;
  }

  void flush() throws IOException {
    if (n > 0) {
      writer.objects(buf, n);
      n = 0;
    }
  }

  void writeByte(int b) throws IOException {
    if (n == buf.length) {
      flush();
    }
    buf[n++] = (byte) b;
  }

  void writeBytes(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      if (n == buf.length) {
        flush();
      }
      int k = Math.min(len, buf.length - n);
      System.arraycopy(b, off, buf, n, k);
      n += k;
      off += k;
      len -= k;
    }
  }

  void writeShort(int v) throws IOException {
    writeByte(v);
    writeByte(v >>> 8);
  }

  void writeInt(int v) throws IOException {
    if (buf.length - n >= 4) {
      buf[n] = (byte) v;
      buf[n + 1] = (byte) (v >>> 8);
      buf[n + 2] = (byte) (v >>> 16);
      buf[n + 3] = (byte) (v >>> 24);
      n += 4;
    } else {
      writeShort(v);
      writeShort(v >>> 16);
    }
  }

  void writeLong(long v) throws IOException {
    writeInt((int) v);
    writeInt((int) (v >>> 32));
  }

  /** Unsigned LEB128. */
  void writeVarLong(long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    writeByte((int) v);
  }

  /** Length-prefixed UTF-8 (WTF-8 for lone surrogates). */
  void writeString(String s) throws IOException {
    int len = s.length();
    boolean ascii = len <= buf.length - n - 10;
    for (int i = 0; ascii && i < len; i++) {
      ascii = s.charAt(i) < 0x80;
    }
    if (ascii) {
      writeVarLong(len);
      for (int i = 0; i < len; i++) {
        buf[n + i] = (byte) s.charAt(i);
      }
      n += len;
      return;
    }
    byte[] b = Wtf8.encode(s);
    writeVarLong(b.length);
    writeBytes(b, 0, b.length);
  }
}
