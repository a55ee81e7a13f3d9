package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * Plain streams over a blocking {@link SocketChannel}. {@code Channels.newInputStream} and {@code
 * newOutputStream} are not used because on JDK 17 both lock the channel's {@code blockingLock()}:
 * a thread blocked reading would stop another thread from writing, and the parent and the worker
 * both read and write one socket from different threads.
 */
final class ChannelStreams {
  private ChannelStreams() {}

  static InputStream in(SocketChannel ch) {
    return new InputStream() {
      private final byte[] one = new byte[1];

      @Override
      public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
          return 0;
        }
        return ch.read(ByteBuffer.wrap(b, off, len));
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
        Objects.checkFromIndexSize(off, len, b.length);
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
  }
}
