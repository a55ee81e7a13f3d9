package io.joblib4j.internal.hash;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import io.joblib4j.internal.text.Wtf8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * xxHash3-128 over the value stream, defined so that the result depends only on the bytes, never on
 * how they were delivered or on how many threads helped:
 *
 * <ul>
 *   <li>The stream is cut into 64 KiB blocks. A stream of one block or less hashes as {@code
 *       xxh128(bytes)}; a longer one as {@code xxh128[seed B](xxh128(block 0) || ... || xxh128(last
 *       block) || length)}.
 *   <li>Raw array bytes do not go into the stream: they are cut into 1 MiB chunks, each chunk is
 *       digested (in parallel for large arrays), and the stream gets the byte length and {@code
 *       xxh128[seed L](digest 0 || digest 1 || ...)}. That is what makes hashing arrays run at memory
 *       speed on several cores.
 * </ul>
 *
 * <p>xxHash3-128 is hash4j's; its digests equal zero-allocation-hashing's {@code xx128}, which this
 * used before (low half = least significant bits), so stored keys did not change
 * (ArrayHashGoldenValuesTest pins them).
 */
final class Xxh3Sink extends HashSink {
  static final int BLOCK = 1 << 16;
  static final int CHUNK = 1 << 20;
  /** Arrays of at least this many chunks are digested in parallel. */
  private static final int PARALLEL_CHUNKS = 8;
  private static final Hasher128 XX = Hashing.xxh3_128();
  private static final Hasher128 BLOCKS = Hashing.xxh3_128(0x6a6c346a424c4bL);
  private static final Hasher128 LEAF = Hashing.xxh3_128(0x6a6c346a4c454146L);

  /** Grows up to BLOCK: most values (call keys) are a few dozen bytes, and a hash must not zero 64 KiB. */
  private byte[] buf = new byte[256];
  private int n;
  private ByteBuffer blockDigests = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
  private long total;
  private final long[] tmp = new long[2];

  @Override
  void putBytes(byte[] b, int off, int len) {
    total += len;
    while (len > 0) {
      int k = Math.min(len, BLOCK - n);
      ensure(n + k);
      System.arraycopy(b, off, buf, n, k);
      n += k;
      off += k;
      len -= k;
      if (n == BLOCK) {
        flushBlock();
      }
    }
  }

  @Override
  void putByte(int v) {
    if (n < BLOCK - 1) {
      ensure(n + 1);
      buf[n++] = (byte) v;
      total++;
    } else {
      super.putByte(v);
    }
  }

  @Override
  void putInt(int v) {
    if (n <= BLOCK - 4) {
      ensure(n + 4);
      buf[n] = (byte) v;
      buf[n + 1] = (byte) (v >>> 8);
      buf[n + 2] = (byte) (v >>> 16);
      buf[n + 3] = (byte) (v >>> 24);
      n += 4;
      total += 4;
    } else {
      super.putInt(v);
    }
  }

  @Override
  void putString(String s) {
    int len = s.length();
    if (len < BLOCK / 2 && n + 10 + len < BLOCK) {
      boolean ascii = true;
      for (int i = 0; i < len && ascii; i++) {
        ascii = s.charAt(i) < 0x80;
      }
      if (ascii) {
        putInt(len);
        ensure(n + len);
        for (int i = 0; i < len; i++) {
          buf[n + i] = (byte) s.charAt(i);
        }
        n += len;
        total += len;
        return;
      }
    }
    byte[] b = Wtf8.encode(s);
    putInt(b.length);
    putBytes(b, 0, b.length);
  }

  private void ensure(int size) {
    if (size > buf.length) {
      buf = java.util.Arrays.copyOf(buf, Math.min(BLOCK, Math.max(size, buf.length * 2)));
    }
  }

  /** {@code f}'s digest of {@code len} bytes of {@code b} into {@code out} as {low, high}. */
  private static void hash(Hasher128 f, byte[] b, int off, int len, long[] out) {
    HashValue128 h = f.hashBytesTo128Bits(b, off, len);
    out[0] = h.getLeastSignificantBits();
    out[1] = h.getMostSignificantBits();
  }

  private void flushBlock() {
    hash(XX, buf, 0, n, tmp);
    if (blockDigests.remaining() < 16) {
      ByteBuffer bigger = ByteBuffer.allocate(blockDigests.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
      blockDigests.flip();
      bigger.put(blockDigests);
      blockDigests = bigger;
    }
    blockDigests.putLong(tmp[0]).putLong(tmp[1]);
    n = 0;
  }

  @Override
  void putRawArray(Object array, int elementSize) {
    int len = java.lang.reflect.Array.getLength(array);
    long bytes = (long) len * elementSize;
    int chunks = (int) ((bytes + CHUNK - 1) / CHUNK);
    long[] digests = new long[2 * chunks];
    java.util.function.IntConsumer one = i -> {
      long from = (long) i * CHUNK;
      int size = (int) Math.min(CHUNK, bytes - from);
      long[] out = new long[2];
      if (array instanceof byte[]) {
        hash(XX, (byte[]) array, (int) from, size, out);
      } else {
        // A copy of the chunk's little-endian bytes, not a read in place: that needed
        // sun.misc.Unsafe. The copy costs large arrays time (BENCHMARKS.md, "hash4j instead of
        // zero-allocation-hashing").
        byte[] copy = COPY.get();
        ArrayBytes.copyLittleEndian(array, from, size, copy, 0);
        hash(XX, copy, 0, size, out);
      }
      digests[2 * i] = out[0];
      digests[2 * i + 1] = out[1];
    };
    forEachChunk(chunks, one);
    putLeaf(bytes, digests);
  }

  @Override
  void putRawBuffers(long bytes, Consumer<Consumer<ByteBuffer>> runs) {
    LeafBuilder leaf = new LeafBuilder(bytes);
    runs.accept(leaf::accept);
    putLeaf(bytes, leaf.finish());
  }

  private static void forEachChunk(int chunks, java.util.function.IntConsumer one) {
    if (chunks >= PARALLEL_CHUNKS) {
      java.util.stream.IntStream.range(0, chunks).parallel().forEach(one);
    } else {
      for (int i = 0; i < chunks; i++) {
        one.accept(i);
      }
    }
  }

  private void putLeaf(long bytes, long[] digests) {
    long[] out = new long[2];
    byte[] leaf = ArrayBytes.littleEndian(digests);
    hash(LEAF, leaf, 0, leaf.length, out);
    putLong(bytes);
    putLong(out[0]);
    putLong(out[1]);
  }

  @Override
  byte[] finish() {
    long[] d = finish128();
    ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
    b.putLong(d[1]).putLong(d[0]);
    return b.array();
  }

  /** The digest as {low, high} 64-bit halves. */
  long[] finish128() {
    long[] out = new long[2];
    finish128(out);
    return out;
  }

  /** The digest into {@code out} as {low, high}: no allocation, for the per-entry path of maps. */
  void finish128(long[] out) {
    if (blockDigests.position() == 0) {
      hash(XX, buf, 0, n, out);
      return;
    }
    if (n > 0) {
      flushBlock();
    }
    if (blockDigests.remaining() < 8) {
      flushCapacity();
    }
    blockDigests.putLong(total);
    hash(BLOCKS, blockDigests.array(), 0, blockDigests.position(), out);
  }

  private void flushCapacity() {
    ByteBuffer bigger = ByteBuffer.allocate(blockDigests.capacity() * 2).order(ByteOrder.LITTLE_ENDIAN);
    blockDigests.flip();
    bigger.put(blockDigests);
    blockDigests = bigger;
  }

  @Override
  void reset() {
    n = 0;
    total = 0;
    blockDigests.clear();
  }

  private static final ThreadLocal<byte[]> COPY = ThreadLocal.withInitial(() -> new byte[CHUNK]);

  /**
   * xxh128 of {@code len} bytes of {@code b} from absolute index {@code off}. Heap buffers are hashed
   * in place; direct (mapped) ones are copied to the heap first (1 MiB at most, then hashed from
   * cache).
   */
  static void hashBuffer(ByteBuffer b, int off, int len, long[] out) {
    if (b.hasArray()) {
      hash(XX, b.array(), b.arrayOffset() + off, len, out);
      return;
    }
    byte[] copy = COPY.get();
    b.get(off, copy, 0, len);
    hash(XX, copy, 0, len, out);
  }

  /** Chunks raw bytes arriving in runs of any size at 1 MiB boundaries of the logical byte stream. */
  private static final class LeafBuilder {
    private final long[] digests;
    private int chunk;
    private byte[] stage;
    private int staged;

    LeafBuilder(long bytes) {
      digests = new long[2 * (int) ((bytes + CHUNK - 1) / CHUNK)];
    }

    void accept(ByteBuffer b) {
      while (b.hasRemaining()) {
        if (staged == 0 && b.remaining() >= CHUNK) {
          int whole = b.remaining() / CHUNK;
          int first = chunk;
          ByteBuffer src = b.duplicate();
          int start = b.position();
          forEachChunk(whole, i -> {
            long[] out = new long[2];
            hashBuffer(src, start + i * CHUNK, CHUNK, out);
            digests[2 * (first + i)] = out[0];
            digests[2 * (first + i) + 1] = out[1];
          });
          chunk += whole;
          b.position(start + whole * CHUNK);
          continue;
        }
        if (stage == null) {
          stage = new byte[CHUNK];
        }
        int k = Math.min(b.remaining(), CHUNK - staged);
        b.get(stage, staged, k);
        staged += k;
        if (staged == CHUNK) {
          digestStage();
        }
      }
    }

    private void digestStage() {
      long[] out = new long[2];
      hash(XX, stage, 0, staged, out);
      digests[2 * chunk] = out[0];
      digests[2 * chunk + 1] = out[1];
      chunk++;
      staged = 0;
    }

    long[] finish() {
      if (staged > 0) {
        digestStage();
      }
      if (chunk * 2 != digests.length) {
        throw new IllegalStateException("array delivered " + chunk + " chunks, expected " + digests.length / 2);
      }
      return digests;
    }
  }
}
