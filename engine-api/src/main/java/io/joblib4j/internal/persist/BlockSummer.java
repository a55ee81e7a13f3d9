package io.joblib4j.internal.persist;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Computes the CRC32C of each block of a payload as its bytes pass, in buffers of any size, and
 * lays them out as a SUMS payload (FORMAT.md): what lets a mapped load check only the blocks read.
 */
final class BlockSummer {
  private final int shift;
  private final int[] sums;
  private final CRC32C crc = new CRC32C();
  private int block;
  private long inBlock;

  BlockSummer(int shift, long length) {
    long n = (length + (1L << shift) - 1) >>> shift;
    if (n > (Integer.MAX_VALUE - Format.SUMS_HEADER) / 4) {
      throw new IllegalArgumentException("array of " + length + " bytes has too many blocks to sum");
    }
    this.shift = shift;
    this.sums = new int[(int) n];
  }

  /** The number of blocks of a payload of {@code length} bytes in blocks of {@code 1 << shift}. */
  static long blockCount(long length, int shift) {
    return (length + (1L << shift) - 1) >>> shift;
  }

  void update(ByteBuffer b) {
    while (b.hasRemaining()) {
      int n = (int) Math.min(b.remaining(), (1L << shift) - inBlock);
      int limit = b.limit();
      b.limit(b.position() + n);
      crc.update(b); // advances b to its new limit
      b.limit(limit);
      inBlock += n;
      if (inBlock == 1L << shift) {
        sums[block++] = (int) crc.getValue();
        crc.reset();
        inBlock = 0;
      }
    }
  }

  /** The SUMS payload, once every byte has passed. */
  ByteBuffer finish() {
    if (inBlock > 0) {
      sums[block++] = (int) crc.getValue();
    }
    if (block != sums.length) {
      throw new IllegalStateException("summed " + block + " blocks of " + sums.length);
    }
    ByteBuffer p = ByteBuffer.allocate(Format.SUMS_HEADER + 4 * sums.length).order(ByteOrder.LITTLE_ENDIAN);
    p.putInt(1 << shift).putInt(sums.length);
    p.asIntBuffer().put(sums);
    return p.position(0);
  }
}
