package io.joblib4j.internal.persist;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Rewrites every checksum of an uncompressed container so that it holds: lets a fuzzer's mutations
 * get past the CRCs and reach the record and value decoders behind them.
 */
final class Checksums {
  private Checksums() {}

  static byte[] fix(byte[] in) {
    byte[] b = in.clone();
    if (b.length < Format.FILE_HEADER) {
      return b;
    }
    ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    buf.putInt(28, crc(b, 0, 28));
    int pos = Format.FILE_HEADER;
    int dataAt = -1;
    int dataLength = 0;
    while (pos + Format.RECORD_HEADER <= b.length) {
      int pad = buf.getInt(pos + 4);
      long len = buf.getLong(pos + 8);
      buf.putInt(pos + 28, crc(b, pos, 28));
      long payloadAt = (long) pos + Format.RECORD_HEADER + pad;
      if (pad < 0 || len < 0 || len > b.length || payloadAt + len + Format.TRAILER > b.length) {
        return b;
      }
      if (b[pos] == Format.KIND_SUMS && dataAt >= 0) {
        fixBlockSums(buf, (int) payloadAt, (int) len, dataAt, dataLength);
      }
      boolean arrayData = b[pos] == Format.KIND_BLOB && b[pos + 1] == Format.BLOB_NDARRAY;
      dataAt = arrayData ? (int) payloadAt : -1;
      dataLength = (int) len;
      int trailer = (int) (payloadAt + len);
      buf.putInt(trailer, crc(b, (int) payloadAt, (int) len));
      pos = trailer + Format.TRAILER;
    }
    return b;
  }

  /** Rewrites the block sums (version 2) of the array data just before, when their layout is sound. */
  private static void fixBlockSums(ByteBuffer buf, int at, int len, int dataAt, int dataLength) {
    if (len < Format.SUMS_HEADER) {
      return;
    }
    int size = buf.getInt(at);
    int n = buf.getInt(at + 4);
    if (size <= 0 || Integer.bitCount(size) != 1 || n < 0 || len - Format.SUMS_HEADER < 4L * n) {
      return;
    }
    for (int i = 0; i < n && (long) i * size < dataLength; i++) {
      int from = dataAt + i * size;
      buf.putInt(at + Format.SUMS_HEADER + 4 * i, crc(buf.array(), from, Math.min(size, dataLength - i * size)));
    }
  }

  private static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
