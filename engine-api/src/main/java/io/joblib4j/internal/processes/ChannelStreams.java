package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams over a blocking {@link SocketChannel}, one thread reading while others write.
 * {@code Channels.newInputStream} would not do: on Java 17 its reads and writes synchronize on the
 * channel's blocking lock, so a reader waiting for the worker's next frame would block every send.
 * A channel is closed when a thread blocked in it is interrupted; a write by a thread that was
 * interrupted before it began clears the flag for the write and sets it again after, so that an
 * interrupt meant for the caller does not cut the connection.
 */
final class ChannelStreams {
  private ChannelStreams() {}

  /** Closes {@code c}, ignoring a failure: for cleanup, where closing is all that is wanted. */
  static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing is all we wanted
    }
  }

  static InputStream in(SocketChannel ch) {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        boolean interrupted = Thread.interrupted();
        try {
          return ch.read(ByteBuffer.wrap(b, off, len));
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }

  static OutputStream out(SocketChannel ch) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
          ByteBuffer buf = ByteBuffer.wrap(b, off, len);
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }
}
