package io.joblib4j.internal.persist;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Where the container writer's bytes go: a file channel (fast path) or any output stream. */
abstract class Sink {
  /** Bytes a single write hands down at most: keeps the JDK's temporary direct buffers small. */
  static final int SLICE = 1 << 20;

  private long position;

  /** Bytes written so far: container offsets, which are file offsets for uncompressed files. */
  final long position() {
    return position;
  }

  /** Writes all of {@code b}'s remaining bytes. */
  final void write(ByteBuffer b) throws IOException {
    position += b.remaining();
    writeFully(b);
  }

  final void write(byte[] b, int off, int len) throws IOException {
    write(ByteBuffer.wrap(b, off, len));
  }

  abstract void writeFully(ByteBuffer b) throws IOException;

  /** A buffer to stage array data in: direct for a channel, heap for a stream. */
  abstract ByteBuffer newScratch(int size);

  static Sink of(FileChannel ch) {
    return new Sink() {
      @Override
      void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
          ByteBuffer s = b;
          if (!b.isDirect() && b.remaining() > SLICE) {
            s = b.slice().limit(SLICE);
          }
          int before = s.remaining();
          while (s.hasRemaining()) {
            ch.write(s);
          }
          if (s != b) {
            b.position(b.position() + before);
          }
        }
      }

      @Override
      ByteBuffer newScratch(int size) {
        return ByteBuffer.allocateDirect(size);
      }
    };
  }

  static Sink of(OutputStream out) {
    return new Sink() {
      private byte[] copy;

      @Override
      void writeFully(ByteBuffer b) throws IOException {
        if (b.hasArray()) {
          out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
          b.position(b.limit());
          return;
        }
        if (copy == null) {
          copy = new byte[1 << 16];
        }
        while (b.hasRemaining()) {
          int n = Math.min(copy.length, b.remaining());
          b.get(copy, 0, n);
          out.write(copy, 0, n);
        }
      }

      @Override
      ByteBuffer newScratch(int size) {
        return ByteBuffer.allocate(size);
      }
    };
  }
}
