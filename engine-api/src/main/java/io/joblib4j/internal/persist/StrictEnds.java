package io.joblib4j.internal.persist;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Makes a decoder's end strict where its library is lenient: a compressed stream must end where
 * the codec says it ends, not merely stop being read. Used by {@link BuiltinCompressors}; {@link
 * Persistence} reads every decompressed stream to its end so that these checks (and the codecs'
 * own trailer checks) run.
 */
final class StrictEnds {
  /** At most this many bytes of trailing garbage are counted for the message. */
  static final int COUNT_LIMIT = 1 << 16;

  private StrictEnds() {}

  /**
   * {@code decoded}, whose end of stream also requires {@code raw} to be at its end. Only for
   * decoders that never read {@code raw} beyond their own data (xz-java's LZMA decoder reads byte
   * by byte), so anything {@code raw} still holds came after the compressed stream.
   */
  static InputStream endingWith(InputStream decoded, InputStream raw, String codec) {
    return new FilterInputStream(decoded) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b < 0) {
          requireEnd(raw, codec);
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n < 0) {
          requireEnd(raw, codec);
        }
        return n;
      }
    };
  }

  /** Throws if {@code raw} holds more bytes: they follow the end of the compressed stream. */
  static void requireEnd(InputStream raw, String codec) throws IOException {
    requireEnd(raw, 0, codec);
  }

  /** As {@link #requireEnd(InputStream, String)}, with {@code alreadyRead} garbage bytes seen before. */
  static void requireEnd(InputStream raw, long alreadyRead, String codec) throws IOException {
    long extra = alreadyRead + count(raw, COUNT_LIMIT);
    if (extra > 0) {
      throw new IOException(extra + (extra >= COUNT_LIMIT ? " or more" : "")
          + " bytes of trailing garbage after the end of the " + codec + " stream");
    }
  }

  /** Reads up to {@code limit} bytes of {@code in} and says how many there were. */
  static long count(InputStream in, int limit) throws IOException {
    if (in.read() < 0) {
      return 0; // the usual case, on every load: no buffer for it
    }
    byte[] b = new byte[8192];
    long n = 1;
    int k;
    while (n < limit && (k = in.read(b, 0, (int) Math.min(b.length, limit - n))) > 0) {
      n += k;
    }
    return n;
  }
}
