package io.joblib4j.internal.processes;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.dynatrace.hash4j.hashing.Hashing;
import io.joblib4j.internal.hash.ArrayBytes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * A 128-bit content digest of a primitive array's little-endian bytes: what decides
 * whether a shared array's kept file still holds the array's content, so it runs on every call that
 * passes a kept array again, over all of it (400 MB: about 30 ms on two threads).
 *
 * <p>The array is read as little-endian 64-bit words (in place for {@code long[]}, {@code double[]}
 * and {@code byte[]}; the other kinds through a 64 KiB copy, no {@code sun.misc.Unsafe}, whose
 * memory access warns from Java 24 on) into four lanes per 16 MiB chunk (chunks in parallel), each
 * lane updated per word by {@code lane = rotl(lane ^ word, 29) * M}, M odd. Both steps are
 * bijections, of the word for a given lane and of the lane for a given word, so a change confined
 * to one word always changes its lane's final value; changes in several words of one lane go
 * unseen only if the last of them exactly cancels the difference the others left in the lane
 * (about 2<sup>-64</sup> for changes not chosen to do so). The lanes of all chunks, the bytes after
 * the last whole 32-byte stripe and the length are then hashed with xxHash3-128. The lanes start
 * from a key drawn per JVM, so that a collision cannot be prepared in advance from a known seed.
 *
 * <p>Why not xxHash3-128 over the whole array, as before: zero-allocation-hashing's hashes ran at
 * 5.3–5.7 GB/s per thread on the machines this is measured on, this loop at 6–7; the digest is
 * most of a second call's time (BENCHMARKS.md). The digest is compared only within this JVM (never
 * stored), so it need not be a standard hash.
 */
final class ArrayDigests {
  private static final Hasher128 TAIL = Hashing.xxh3_128(0x6a6c346a53484152L);
  private static final Hasher128 ROOT = Hashing.xxh3_128(0x6a6c346a524f4f54L);
  private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long CHUNK = 16L << 20;
  /** Bytes copied at a time for the kinds not read in place: stays in cache between copy and read. */
  private static final int COPY = 64 << 10;
  private static final int LANES = 4;
  private static final long STRIPE = 8L * LANES;
  private static final long M = 0x9E3779B185EBCA87L;
  private static final long[] KEY = new SplittableRandom().longs(LANES).toArray();

  private ArrayDigests() {}

  /** The digest of primitive array {@code array}'s elements (and their count). */
  static long[] of(Object array) {
    long bytes = SharedArrayFiles.byteSize(array);
    long striped = bytes - bytes % STRIPE;
    int chunks = (int) Math.max(1, (striped + CHUNK - 1) / CHUNK);
    long[] state = new long[LANES * chunks + 3];
    IntStream range = IntStream.range(0, chunks);
    (chunks > 1 ? range.parallel() : range).forEach(i -> {
      long from = i * CHUNK;
      long[] lanes = KEY.clone();
      lanes(array, from, Math.min(CHUNK, striped - from), lanes);
      System.arraycopy(lanes, 0, state, LANES * i, LANES);
    });
    byte[] tailBytes = new byte[(int) (bytes - striped)];
    ArrayBytes.copyLittleEndian(array, striped, tailBytes.length, tailBytes, 0);
    HashValue128 tail = TAIL.hashBytesTo128Bits(tailBytes);
    state[state.length - 3] = tail.getLeastSignificantBits();
    state[state.length - 2] = tail.getMostSignificantBits();
    state[state.length - 1] = bytes;
    HashValue128 root = ROOT.hashBytesTo128Bits(ArrayBytes.littleEndian(state));
    return new long[] {root.getLeastSignificantBits(), root.getMostSignificantBits()};
  }

  /** Updates {@code lanes} with {@code length} bytes (whole stripes) of {@code array} from byte {@code from}. */
  private static void lanes(Object array, long from, long length, long[] lanes) {
    if (array instanceof long[]) {
      longLanes((long[]) array, (int) (from / 8), (int) (length / 8), lanes);
    } else if (array instanceof double[]) {
      doubleLanes((double[]) array, (int) (from / 8), (int) (length / 8), lanes);
    } else if (array instanceof byte[]) {
      byteLanes((byte[]) array, (int) from, (int) length, lanes);
    } else {
      byte[] copy = new byte[COPY];
      for (long p = from, end = from + length; p < end; p += COPY) {
        int k = (int) Math.min(COPY, end - p); // whole stripes: COPY and length are multiples of STRIPE
        ArrayBytes.copyLittleEndian(array, p, k, copy, 0);
        byteLanes(copy, 0, k, lanes);
      }
    }
  }

  private static void longLanes(long[] a, int first, int words, long[] lanes) {
    long l0 = lanes[0];
    long l1 = lanes[1];
    long l2 = lanes[2];
    long l3 = lanes[3];
    for (int i = first, end = first + words; i < end; i += LANES) {
      l0 = Long.rotateLeft(l0 ^ a[i], 29) * M;
      l1 = Long.rotateLeft(l1 ^ a[i + 1], 29) * M;
      l2 = Long.rotateLeft(l2 ^ a[i + 2], 29) * M;
      l3 = Long.rotateLeft(l3 ^ a[i + 3], 29) * M;
    }
    store(lanes, l0, l1, l2, l3);
  }

  private static void doubleLanes(double[] a, int first, int words, long[] lanes) {
    long l0 = lanes[0];
    long l1 = lanes[1];
    long l2 = lanes[2];
    long l3 = lanes[3];
    for (int i = first, end = first + words; i < end; i += LANES) {
      l0 = Long.rotateLeft(l0 ^ Double.doubleToRawLongBits(a[i]), 29) * M;
      l1 = Long.rotateLeft(l1 ^ Double.doubleToRawLongBits(a[i + 1]), 29) * M;
      l2 = Long.rotateLeft(l2 ^ Double.doubleToRawLongBits(a[i + 2]), 29) * M;
      l3 = Long.rotateLeft(l3 ^ Double.doubleToRawLongBits(a[i + 3]), 29) * M;
    }
    store(lanes, l0, l1, l2, l3);
  }

  private static void byteLanes(byte[] a, int from, int length, long[] lanes) {
    long l0 = lanes[0];
    long l1 = lanes[1];
    long l2 = lanes[2];
    long l3 = lanes[3];
    for (int p = from, end = from + length; p < end; p += (int) STRIPE) {
      l0 = Long.rotateLeft(l0 ^ (long) WORDS.get(a, p), 29) * M;
      l1 = Long.rotateLeft(l1 ^ (long) WORDS.get(a, p + 8), 29) * M;
      l2 = Long.rotateLeft(l2 ^ (long) WORDS.get(a, p + 16), 29) * M;
      l3 = Long.rotateLeft(l3 ^ (long) WORDS.get(a, p + 24), 29) * M;
    }
    store(lanes, l0, l1, l2, l3);
  }

  private static void store(long[] lanes, long l0, long l1, long l2, long l3) {
    lanes[0] = l0;
    lanes[1] = l1;
    lanes[2] = l2;
    lanes[3] = l3;
  }
}
