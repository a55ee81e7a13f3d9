package io.joblib4j.hdfs.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;

/**
 * Counts and checksums what a caller's writer produces, and keeps it from closing the store's
 * stream (the store must hsync before close, and closes it itself).
 */
final class CrcOutputStream extends FilterOutputStream {
  private final CRC32C crc = new CRC32C();
  private long bytes;

  CrcOutputStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    crc.update(b);
    bytes++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    crc.update(b, off, len);
    bytes += len;
  }

  @Override
  public void close() throws IOException {
    flush();
  }

  Manifest.FileSum sum() {
    return new Manifest.FileSum(bytes, hex(crc.getValue()));
  }

  static String hex(long crc) {
    return String.format("%08x", crc);
  }
}
