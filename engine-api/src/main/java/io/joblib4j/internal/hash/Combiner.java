package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Combines the digests of a map's entries or a set's elements independently of their order. With
 * xxHash3 the 128-bit digests are added modulo 2^128: cheap, and as good as the digests for data
 * nobody crafted. With SHA-256 the digests are sorted and hashed in that order, because sums of
 * cryptographic digests are open to generalised-birthday collisions, and SHA-256 is the choice of
 * users who worry about crafted inputs.
 */
final class Combiner {
  private final boolean sum;
  private long lo;
  private long hi;
  private final List<byte[]> digests;
  private final long[] d = new long[2];

  Combiner(HashAlgorithm algorithm, int expected) {
    sum = algorithm == HashAlgorithm.XXH3_128;
    digests = sum ? null : new ArrayList<>(Math.min(expected, 1 << 16));
  }

  void add(HashSink element) {
    if (sum) {
      ((Xxh3Sink) element).finish128(d);
      long newLo = lo + d[0];
      hi += d[1] + (Long.compareUnsigned(newLo, lo) < 0 ? 1 : 0);
      lo = newLo;
    } else {
      digests.add(element.finish());
    }
  }

  void into(HashSink out) {
    if (sum) {
      out.putLong(lo);
      out.putLong(hi);
      return;
    }
    byte[][] all = digests.toArray(new byte[0][]);
    Arrays.sort(all, Arrays::compareUnsigned);
    for (byte[] d : all) {
      out.putBytes(d, 0, d.length);
    }
  }
}
