package io.joblib4j.spi.support;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32C;
import org.apiguardian.api.API;

/**
 * Counts and CRC32C-checksums what a writer produces on its way to a store's stream, and keeps
 * the writer from closing that stream: a store syncs and closes its own streams, so {@link
 * #close()} only flushes. The cache's {@code metadata.json} and the Hadoop store's manifests record
 * the size and checksum this sees; a {@link io.joblib4j.spi.Store} that keeps checksums of its own files can use it
 * the same way.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class CountingCrcOutputStream extends FilterOutputStream {
  private final CRC32C crc = new CRC32C();
  private long bytes;

  /**
   * Counts what is written to {@code out}.
   *
   * @param out the store's stream, which this never closes
   */
  public CountingCrcOutputStream(OutputStream out) {
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

  /**
   * How many bytes went through.
   *
   * @return the number of bytes
   */
  public long bytes() {
    return bytes;
  }

  /**
   * The CRC32C of those bytes, as {@link #hex(long)} writes it.
   *
   * @return 8 lower-case hex digits
   */
  public String crcHex() {
    return hex(crc.getValue());
  }

  /**
   * A CRC32 value as the eight lower-case hex digits metadata files record.
   *
   * @param crc a CRC32C value
   * @return 8 lower-case hex digits
   */
  public static String hex(long crc) {
    return String.format("%08x", crc);
  }
}
