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
    while (pos + Format.RECORD_HEADER <= b.length) {
      int pad = buf.getInt(pos + 4);
      long len = buf.getLong(pos + 8);
      buf.putInt(pos + 28, crc(b, pos, 28));
      long payloadAt = (long) pos + Format.RECORD_HEADER + pad;
      if (pad < 0 || len < 0 || len > b.length || payloadAt + len + Format.TRAILER > b.length) {
        return b;
      }
      int trailer = (int) (payloadAt + len);
      buf.putInt(trailer, crc(b, (int) payloadAt, (int) len));
      pos = trailer + Format.TRAILER;
    }
    return b;
  }

  private static int crc(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
