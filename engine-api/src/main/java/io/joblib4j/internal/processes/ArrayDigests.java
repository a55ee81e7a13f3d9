package io.joblib4j.internal.processes;

import io.joblib4j.internal.hash.UnsafeArrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongTupleHashFunction;

/**
 * A 128-bit content digest of a primitive array's memory, read in place (no copy): what decides
 * whether a shared array's kept file still holds the array's content, so it runs on every call that
 * passes a kept array again, over all of it (400 MB: about 30 ms on two threads).
 *
 * <p>The array is read as 64-bit words into four lanes per 16 MiB chunk (chunks in parallel), each
 * lane updated per word by {@code lane = rotl(lane ^ word, 29) * M}, M odd. Both steps are
 * bijections, of the word for a given lane and of the lane for a given word, so a change confined
 * to one word always changes its lane's final value; changes in several words of one lane go
 * unseen only if the last of them exactly cancels the difference the others left in the lane
 * (about 2<sup>-64</sup> for changes not chosen to do so). The lanes of all chunks, the bytes after
 * the last whole 32-byte stripe and the length are then hashed with xxHash3-128. The lanes start
 * from a key drawn per JVM, so that a collision cannot be prepared in advance from a known seed.
 *
 * <p>Why not xxHash3-128 over the whole array, as before: zero-allocation-hashing's hashes run at
 * 5.3–5.7 GB/s per thread on the machines this is measured on, this loop at 6–7; the digest is
 * most of a second call's time (BENCHMARKS.md). The digest is compared only within this JVM (never
 * stored), so it need not be a standard hash.
 */
final class ArrayDigests {
  private static final LongTupleHashFunction TAIL = LongTupleHashFunction.xx128(0x6a6c346a53484152L);
  private static final LongTupleHashFunction ROOT = LongTupleHashFunction.xx128(0x6a6c346a524f4f54L);
  private static final Access<Object> MEMORY = Access.unsafe();
  private static final long CHUNK = 16L << 20;
  private static final int LANES = 4;
  private static final long STRIPE = 8L * LANES;
  private static final long M = 0x9E3779B185EBCA87L;
  private static final long[] KEY = new SplittableRandom().longs(LANES).toArray();

  private ArrayDigests() {}

  /** The digest of primitive array {@code array}'s elements (and their count). */
  static long[] of(Object array) {
    long base = UnsafeArrays.baseOffset(array);
    long bytes = SharedArrayFiles.byteSize(array);
    long striped = bytes - bytes % STRIPE;
    int chunks = (int) Math.max(1, (striped + CHUNK - 1) / CHUNK);
    long[] state = new long[LANES * chunks + 3];
    IntStream range = IntStream.range(0, chunks);
    (chunks > 1 ? range.parallel() : range).forEach(i -> {
      long from = i * CHUNK;
      lanes(array, base + from, Math.min(CHUNK, striped - from), state, LANES * i);
    });
    long[] tail = TAIL.hash(array, MEMORY, base + striped, bytes - striped);
    state[state.length - 3] = tail[0];
    state[state.length - 2] = tail[1];
    state[state.length - 1] = bytes;
    return ROOT.hashLongs(state);
  }

  /** The lanes of {@code length} bytes (whole stripes) at {@code offset}, into {@code into[at..at+3]}. */
  private static void lanes(Object array, long offset, long length, long[] into, int at) {
    long l0 = KEY[0];
    long l1 = KEY[1];
    long l2 = KEY[2];
    long l3 = KEY[3];
    for (long p = offset, end = offset + length; p < end; p += STRIPE) {
      l0 = Long.rotateLeft(l0 ^ MEMORY.getLong(array, p), 29) * M;
      l1 = Long.rotateLeft(l1 ^ MEMORY.getLong(array, p + 8), 29) * M;
      l2 = Long.rotateLeft(l2 ^ MEMORY.getLong(array, p + 16), 29) * M;
      l3 = Long.rotateLeft(l3 ^ MEMORY.getLong(array, p + 24), 29) * M;
    }
    into[at] = l0;
    into[at + 1] = l1;
    into[at + 2] = l2;
    into[at + 3] = l3;
  }
}
