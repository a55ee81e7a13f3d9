package io.joblib4j.internal.processes;

import io.joblib4j.internal.hash.UnsafeArrays;
import java.util.stream.IntStream;
import net.openhft.hashing.Access;
import net.openhft.hashing.LongTupleHashFunction;

/**
 * A 128-bit content digest (xxHash3-128) of a primitive array's memory, read in place (no copy),
 * chunks hashed in parallel and their digests hashed again: a few tens of milliseconds for 400 MB.
 * What decides whether a shared array's file still holds the array's content.
 */
final class ArrayDigests {
  private static final LongTupleHashFunction CHUNKS = LongTupleHashFunction.xx128(0x6a6c346a53484152L);
  private static final LongTupleHashFunction ROOT = LongTupleHashFunction.xx128(0x6a6c346a524f4f54L);
  private static final long CHUNK = 16L << 20;

  private ArrayDigests() {}

  /** The digest of primitive array {@code array}'s elements (and their count). */
  static long[] of(Object array) {
    long base = UnsafeArrays.baseOffset(array);
    long bytes = SharedArrayFiles.byteSize(array);
    int chunks = (int) Math.max(1, (bytes + CHUNK - 1) / CHUNK);
    long[] digests = new long[2 * chunks + 1];
    digests[2 * chunks] = bytes;
    IntStream range = IntStream.range(0, chunks);
    (chunks > 1 ? range.parallel() : range).forEach(i -> {
      long from = i * CHUNK;
      long[] d = CHUNKS.hash(array, Access.unsafe(), base + from, Math.min(CHUNK, bytes - from));
      digests[2 * i] = d[0];
      digests[2 * i + 1] = d[1];
    });
    return ROOT.hashLongs(digests);
  }
}
