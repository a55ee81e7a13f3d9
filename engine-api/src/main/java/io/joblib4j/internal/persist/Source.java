package io.joblib4j.internal.persist;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Where the container reader's bytes come from: a file channel (size known, so every length can be
 * checked against the bytes that really remain) or a stream (size unknown, so lengths are checked
 * against the byte budget and data is allocated only as it arrives).
 */
abstract class Source {
  long position;

  /** Fills {@code dst} completely, or throws EOFException. */
  abstract void readFully(ByteBuffer dst) throws IOException;

  /** Bytes left, or -1 if unknown. */
  abstract long remaining() throws IOException;

  /** Skips {@code n} bytes (only ever called where the size is known). */
  abstract void skip(long n) throws IOException;

  /** A staging buffer suited to this source. */
  abstract ByteBuffer newScratch(int size);

  /** The channel, for mapping; null for streams. */
  FileChannel channel() {
    return null;
  }

  static Source of(FileChannel ch) {
    return new Source() {
      @Override
      void readFully(ByteBuffer dst) throws IOException {
        while (dst.hasRemaining()) {
          ByteBuffer s = dst;
          if (!dst.isDirect() && dst.remaining() > Sink.SLICE) {
            s = dst.slice().limit(Sink.SLICE);
          }
          int want = s.remaining();
          while (s.hasRemaining()) {
            int n = ch.read(s, position + (want - s.remaining()));
            if (n < 0) {
              throw new EOFException();
            }
          }
          position += want;
          if (s != dst) {
            dst.position(dst.position() + want);
          }
        }
      }

      @Override
      long remaining() throws IOException {
        return ch.size() - position;
      }

      @Override
      void skip(long n) {
        position += n;
      }

      @Override
      ByteBuffer newScratch(int size) {
        return ByteBuffer.allocateDirect(size);
      }

      @Override
      FileChannel channel() {
        return ch;
      }
    };
  }

  static Source of(InputStream in, long budget) {
    return new Source() {
      @Override
      void readFully(ByteBuffer dst) throws IOException {
        int want = dst.remaining();
        if (position + want > budget) {
          throw new LimitException(budget);
        }
        if (dst.hasArray()) {
          int got = in.readNBytes(dst.array(), dst.arrayOffset() + dst.position(), want);
          position += got;
          if (got < want) {
            throw new EOFException();
          }
          dst.position(dst.limit());
          return;
        }
        byte[] tmp = new byte[Math.min(want, 1 << 16)];
        while (dst.hasRemaining()) {
          int k = Math.min(tmp.length, dst.remaining());
          int got = in.readNBytes(tmp, 0, k);
          position += got;
          if (got < k) {
            throw new EOFException();
          }
          dst.put(tmp, 0, k);
        }
      }

      @Override
      long remaining() {
        return -1;
      }

      @Override
      void skip(long n) {
        throw new UnsupportedOperationException();
      }

      @Override
      ByteBuffer newScratch(int size) {
        return ByteBuffer.allocate(size);
      }
    };
  }

  /** The stream went past {@link io.joblib4j.LoadOptions#maxDecompressedBytes()}. */
  static final class LimitException extends IOException {
    private static final long serialVersionUID = 1L;

    LimitException(long budget) {
      super("the data decompresses to more than the limit of " + budget + " bytes (LoadOptions.maxDecompressedBytes,"
          + " by default half the maximum heap). If the file is what you expect, raise it with"
          + " LoadOptions.builder().maxDecompressedBytes(...), or for Memory and every load in this JVM with -D"
          + io.joblib4j.LoadOptions.MAX_DECOMPRESSED_BYTES_PROPERTY + "=<size>");
    }
  }
}
