package io.joblib4j.internal.persist;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a gzip stream (RFC 1952): one or more members, each a header, deflate data and a trailer
 * whose CRC32 and size are checked; after the last member nothing may follow. The JDK's
 * GZIPInputStream ignores bytes after the last member that do not form a gzip header, and
 * commons-compress's strict reader inflates through an 8 KiB buffer, which made gzip loads 12 %
 * slower; this reads with the JDK's Inflater through a 64 KiB buffer, as GZIPInputStream does.
 */
final class GzipMembers extends DecodingStream {
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  private final InputStream in;
  private final Inflater inf = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final CRC32 headerCrc = new CRC32();
  /** What was read from {@code in}: {@code buf[pos, filled)} is not used yet (headers and trailers are read from it too). */
  private final byte[] buf;
  private int pos;
  private int filled;
  private boolean inMember;
  private boolean ended;

  GzipMembers(InputStream in, int bufferSize) throws IOException {
    this.buf = new byte[bufferSize];
    this.in = in;
    readHeader(true);
  }

  @Override
  int decode(byte[] b, int off, int len) throws IOException {
    while (!ended) {
      if (!inMember) {
        nextMember();
        continue;
      }
      int n;
      try {
        n = inf.inflate(b, off, len);
      } catch (DataFormatException e) {
        throw new IOException("invalid deflate data in the gzip stream: " + e.getMessage(), e);
      }
      if (n > 0) {
        crc.update(b, off, n);
        return n;
      }
      if (inf.finished()) {
        endMember();
      } else if (inf.needsDictionary()) {
        throw new IOException("the gzip stream's deflate data asks for a preset dictionary");
      } else if (inf.needsInput()) {
        if (!fill()) {
          throw new EOFException("the gzip data ends inside a member");
        }
        inf.setInput(buf, pos, filled - pos);
        pos = filled;
      }
    }
    return -1;
  }

  /** Takes back what the Inflater did not use, checks the trailer, and starts over for a next member. */
  private void endMember() throws IOException {
    pos = filled - inf.getRemaining();
    long storedCrc = readUInt32();
    long storedSize = readUInt32();
    if (storedCrc != crc.getValue()) {
      throw new IOException("CRC32 mismatch in the gzip trailer (the data is damaged)");
    }
    if (storedSize != (inf.getBytesWritten() & 0xFFFFFFFFL)) {
      throw new IOException("size mismatch in the gzip trailer (the data is damaged)");
    }
    inf.reset();
    crc.reset();
    inMember = false;
  }

  /** At the end of the data, the end; anything else must be another member. */
  private void nextMember() throws IOException {
    if (!fill()) {
      ended = true;
      return;
    }
    readHeader(false);
  }

  /** Whether a byte is there to read, reading more from {@code in} when none is left. */
  private boolean fill() throws IOException {
    if (pos < filled) {
      return true;
    }
    int n = in.read(buf, 0, buf.length);
    pos = 0;
    filled = Math.max(n, 0);
    return n > 0;
  }

  /** The next byte, or -1 at the end of the data. */
  private int next() throws IOException {
    return fill() ? buf[pos++] & 0xFF : -1;
  }

  private void readHeader(boolean first) throws IOException {
    headerCrc.reset();
    int id1 = next();
    int id2 = next();
    if (id1 != 0x1f || id2 != 0x8b) {
      throw new IOException(first ? "not in gzip format" : "trailing garbage after the end of the gzip stream");
    }
    headerCrc.update(id1);
    headerCrc.update(id2);
    if (headerByte() != 8) {
      throw new IOException("unsupported gzip compression method (only deflate exists)");
    }
    int flags = headerByte();
    if ((flags & 0xE0) != 0) {
      throw new IOException("reserved gzip header flags are set");
    }
    for (int i = 0; i < 6; i++) {
      headerByte(); // modification time, extra flags, operating system
    }
    if ((flags & FEXTRA) != 0) {
      int n = headerByte() | headerByte() << 8;
      for (int i = 0; i < n; i++) {
        headerByte();
      }
    }
    if ((flags & FNAME) != 0) {
      while (headerByte() != 0) {
        // the original file name, zero-terminated
      }
    }
    if ((flags & FCOMMENT) != 0) {
      while (headerByte() != 0) {
        // a comment, zero-terminated
      }
    }
    if ((flags & FHCRC) != 0) {
      int expected = (int) (headerCrc.getValue() & 0xFFFF);
      if ((rawByte() | rawByte() << 8) != expected) {
        throw new IOException("CRC16 mismatch in the gzip header");
      }
    }
    inMember = true;
  }

  private int headerByte() throws IOException {
    int b = rawByte();
    headerCrc.update(b);
    return b;
  }

  private int rawByte() throws IOException {
    int b = next();
    if (b < 0) {
      throw new EOFException("the gzip data ends inside a header or trailer");
    }
    return b;
  }

  private long readUInt32() throws IOException {
    long v = 0;
    for (int i = 0; i < 4; i++) {
      v |= (long) rawByte() << (8 * i);
    }
    return v;
  }

  @Override
  void release() throws IOException {
    inf.end();
    in.close();
  }
}
