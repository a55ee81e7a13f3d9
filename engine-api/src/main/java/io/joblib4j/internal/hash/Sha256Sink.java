package io.joblib4j.internal.hash;

import io.joblib4j.internal.text.Wtf8;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Consumer;

/** SHA-256 over the value stream; raw array bytes go into the digest as they are, in order. */
final class Sha256Sink extends HashSink {
  private static final int PIECE = 1 << 16;
  private final MessageDigest md;

  Sha256Sink() {
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }

  @Override
  void putBytes(byte[] b, int off, int len) {
    md.update(b, off, len);
  }

  @Override
  void putString(String s) {
    byte[] b = Wtf8.encode(s);
    putInt(b.length);
    md.update(b);
  }

  @Override
  void putRawArray(Object array, int elementSize) {
    int len = java.lang.reflect.Array.getLength(array);
    putLong((long) len * elementSize);
    int per = PIECE / elementSize;
    for (int off = 0; off < len; off += per) {
      md.update(LittleEndian.copy(array, off, Math.min(per, len - off)));
    }
  }

  @Override
  void putRawBuffers(long total, Consumer<Consumer<ByteBuffer>> runs) {
    putLong(total);
    runs.accept(md::update);
  }

  @Override
  byte[] finish() {
    return md.digest();
  }

  @Override
  void reset() {
    md.reset();
  }
}
