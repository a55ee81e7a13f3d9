package io.joblib4j.internal.memory;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * Reads a stored result for loading: a small one (most cache hits) in a single read, decoded from
 * memory; a large one as a buffered stream after its first megabyte, so memory stays bounded.
 */
final class SmallFirst {
  private static final int SMALL = 1 << 20;

  private SmallFirst() {}

  static InputStream of(InputStream in) throws IOException {
    if (in instanceof ByteArrayInputStream) {
      return in; // in memory already (OutputCache): no copy
    }
    byte[] head = in.readNBytes(SMALL);
    if (head.length < SMALL) {
      return new ByteArrayInputStream(head);
    }
    return new SequenceInputStream(new ByteArrayInputStream(head), new BufferedInputStream(in, 1 << 16));
  }
}
