package io.joblib4j.spark.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The little protocol between the driver and the executor-side workers of a call. Every message
 * is a one-byte kind followed by its fields; byte payloads are length-prefixed. The executor
 * speaks first ({@link #HELLO}), then asks for batches ({@link #READY}) and reports on each one;
 * the driver answers with a {@link #BATCH} or tells it to stop ({@link #EXIT}).
 */
final class Frames {
  private Frames() {}

  // executor -> driver
  /** callId (UTF), token (bytes), worker name (UTF). */
  static final byte HELLO = 1;
  /** The worker is free: send a batch or EXIT. */
  static final byte READY = 2;
  /** seq (int): the batch is deserialized, the initializer has run, the tasks start now. */
  static final byte STARTED = 3;
  /** seq (int), tasks done so far (int). */
  static final byte PROGRESS = 4;
  /** seq (int), the serialized BatchOutcome (bytes); the worker is free again. */
  static final byte OUTCOME = 5;
  /**
   * seq (int), index of the failed task (int), the serialized exception (bytes, maybe empty),
   * then class name, message and stack text (UTF) to fall back on when the exception cannot be
   * serialized or deserialized; the worker is free again.
   */
  static final byte TASK_FAILED = 6;
  /**
   * seq (int), what went wrong outside the tasks (UTF), and an optional serialized exception
   * (bytes): the batch could not be read, the initializer failed, the result is too large.
   */
  static final byte BROKEN = 7;

  // driver -> executor
  /** seq (int), the serialized Batch (bytes). */
  static final byte BATCH = 10;
  /** The call is over; the worker returns. */
  static final byte EXIT = 11;

  static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static byte[] readBytes(DataInputStream in, long limit, String what) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > limit) {
      throw new IOException(what + " of " + n + " bytes is over the limit of " + limit + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  /**
   * Writes a string of any length (DataOutputStream.writeUTF stops at 64 KiB, and a stack trace
   * or message can be longer).
   */
  static void writeText(DataOutputStream out, String s) throws IOException {
    writeBytes(out, (s == null ? "" : s).getBytes(StandardCharsets.UTF_8));
  }

  static String readText(DataInputStream in) throws IOException {
    return readText(in, 64L << 20);
  }

  static String readText(DataInputStream in, long limit) throws IOException {
    return new String(readBytes(in, limit, "a text field"), StandardCharsets.UTF_8);
  }

  /**
   * The next {@code length} bytes of {@code in} as a stream of their own, so that a large payload
   * is deserialized straight from the socket instead of being copied into an array first.
   */
  static InputStream slice(InputStream in, long length) {
    return new FilterInputStream(in) {
      private long left = length;

      @Override
      public int read() throws IOException {
        if (left <= 0) {
          return -1;
        }
        int b = super.read();
        if (b < 0) {
          throw new EOFException("the connection closed inside a payload");
        }
        left--;
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        if (left <= 0) {
          return -1;
        }
        int n = super.read(buf, off, (int) Math.min(len, left));
        if (n < 0) {
          throw new EOFException("the connection closed inside a payload");
        }
        left -= n;
        return n;
      }

      @Override
      public void close() throws IOException {
        // drain what the reader left, so the next message starts where it should; keep the socket
        while (left > 0) {
          long skipped = super.skip(left);
          if (skipped <= 0) {
            if (super.read() < 0) {
              throw new EOFException("the connection closed inside a payload");
            }
            skipped = 1;
          }
          left -= skipped;
        }
      }
    };
  }
}
