package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * Receives the canonical byte stream of a value and digests it. The stream is defined by {@link
 * ValueHasher}; a sink decides only how the bytes are digested (xxHash3-128 in blocks, or SHA-256),
 * and how raw array bytes are folded in.
 */
abstract class HashSink {
  private final byte[] scratch = new byte[8];

  static HashSink create(HashAlgorithm algorithm) {
    return algorithm == HashAlgorithm.SHA_256 ? new Sha256Sink() : new Xxh3Sink();
  }

  abstract void putBytes(byte[] b, int off, int len);

  void putByte(int v) {
    scratch[0] = (byte) v;
    putBytes(scratch, 0, 1);
  }

  void putInt(int v) {
    for (int i = 0; i < 4; i++) {
      scratch[i] = (byte) (v >>> (8 * i));
    }
    putBytes(scratch, 0, 4);
  }

  void putLong(long v) {
    for (int i = 0; i < 8; i++) {
      scratch[i] = (byte) (v >>> (8 * i));
    }
    putBytes(scratch, 0, 8);
  }

  /** Length-prefixed UTF-8 (WTF-8 for lone surrogates). */
  abstract void putString(String s);

  /** The raw little-endian bytes of a whole primitive array. */
  abstract void putRawArray(Object array, int elementSize);

  /** Raw bytes delivered as a run of buffers (an NDArray's elements in C order), {@code total} in all. */
  abstract void putRawBuffers(long total, Consumer<Consumer<ByteBuffer>> runs);

  /** The digest of everything put since the last reset; 16 bytes (xxHash3) or 32 (SHA-256). */
  abstract byte[] finish();

  /** Starts over, keeping buffers. */
  abstract void reset();
}
