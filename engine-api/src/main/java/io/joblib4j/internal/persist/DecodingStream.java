package io.joblib4j.internal.persist;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The InputStream plumbing of joblib4j's own decoders ({@link GzipMembers}, {@link
 * ZstdFrameInput}): argument checks, single-byte reads, and a close that releases native state
 * once. A decoder writes only {@link #decode} and {@link #release}.
 */
abstract class DecodingStream extends InputStream {
  private final byte[] one = new byte[1];
  private boolean closed;

  /** Decodes up to {@code len} (at least 1) bytes into {@code b}; -1 at the end of the data. */
  abstract int decode(byte[] b, int off, int len) throws IOException;

  /** Frees what the decoder holds and closes its input; called once. */
  abstract void release() throws IOException;

  @Override
  public final int read() throws IOException {
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public final int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (closed) {
      throw new IOException("stream closed");
    }
    return len == 0 ? 0 : decode(b, off, len);
  }

  @Override
  public final void close() throws IOException {
    if (!closed) {
      closed = true;
      release();
    }
  }
}
