package io.joblib4j.internal.worker;

import io.joblib4j.spi.worker.FailureKind;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The framed protocol between a parent (the JVM that runs {@code Parallel}) and a worker in
 * another JVM, over one TCP connection the worker opens. A frame is {@code int length} (of what
 * follows), {@code byte type}, then the type's body. Both sides read frames strictly in order, so
 * no frame carries a sequence number beyond the job id.
 *
 * <pre>
 * parent → worker
 *   BATCH     long job, bytes initializer (empty: none, or the worker ran it), bytes batch
 *   RELEASE   string callId                        drop what the worker holds for that call
 *   EXIT      —                                    the worker's loop returns
 *   PARK      bytes note                           the worker's loop answers PARKED and returns; the
 *                                                  note is for the worker's own code (where to wait)
 * worker → parent
 *   HELLO     int version, bytes token, string scope, string worker, long pid, long maxHeapBytes
 *   STARTED   long job                             the batch's tasks begin now
 *   PROGRESS  long job, int tasksDone              coalesced, at most every few ms
 *   OUTCOME   long job, bytes results              every task of the batch succeeded
 *   SPILLED   long job, string file, long length   the same, the results in that file of the parent's
 *                                                  spill folder, which the parent reads and deletes
 *   FAILED    long job, byte kind, int task, string message, string className, string path,
 *             bytes exception, bytes stand-in      see {@link FailureKind}
 *   EXITING   string note                          the worker's JVM is exiting on its own
 *   OUTPUT    byte stream (1 out, 2 err), bytes    what the worker's code printed, where its own
 *                                                  stdout and stderr do not reach the parent
 *   PARKED    —                                    the last frame after PARK
 * </pre>
 *
 * {@code bytes} is an {@code int} length and the bytes; {@code string} is UTF-8 {@code bytes}. The
 * HELLO frame starts with the protocol version, the token and the scope, in that order in every
 * version, so that a parent can route and refuse a worker of another version by name.
 */
final class Frames {
  static final byte BATCH = 1;
  static final byte RELEASE = 2;
  static final byte EXIT = 3;
  static final byte PARK = 4;

  static final byte HELLO = 10;
  static final byte STARTED = 11;
  static final byte PROGRESS = 12;
  static final byte OUTCOME = 13;
  static final byte FAILED = 14;
  static final byte EXITING = 15;
  static final byte SPILLED = 16;
  static final byte OUTPUT = 17;
  static final byte PARKED = 18;

  /** No frame is this large; a bigger length means the stream is out of step. */
  static final int MAX_FRAME = Integer.MAX_VALUE - 64;
  /** Before a peer has proven itself, nothing larger is read from it. */
  static final int MAX_HELLO = 64 << 10;

  static final byte[] EMPTY = new byte[0];
  /** Byte counts up to this are allocated at once; larger ones as their bytes arrive. */
  private static final int FIRST_PIECE = 1 << 20;

  private static final FailureKind[] FAILURE_KINDS = FailureKind.values();

  private Frames() {}

  /**
   * A failure kind on the wire: its ordinal, so the enum's order is part of the protocol ({@link
   * io.joblib4j.spi.worker.Hello#VERSION}).
   */
  static byte code(FailureKind kind) {
    return (byte) kind.ordinal();
  }

  static FailureKind failureKind(byte code) throws StreamCorruptedException {
    if (code < 0 || code >= FAILURE_KINDS.length) {
      throw new StreamCorruptedException("unknown failure kind " + code);
    }
    return FAILURE_KINDS[code];
  }

  /** Reads a frame header and returns its type; the body follows in {@code in}. */
  static byte readType(DataInputStream in, int maxLength) throws IOException {
    int length = in.readInt();
    if (length < 1 || length > maxLength) {
      throw new StreamCorruptedException("bad frame length " + length);
    }
    return in.readByte();
  }

  static void writeHeader(DataOutputStream out, int bodyLength, byte type) throws IOException {
    out.writeInt(bodyLength + 1);
    out.writeByte(type);
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    return readBytes(in, MAX_FRAME);
  }

  /** A {@code bytes} field, refusing a count over {@code max} before allocating anything. */
  static byte[] readBytes(DataInputStream in, int max) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > max) {
      throw new StreamCorruptedException("bad byte count " + n);
    }
    if (n <= FIRST_PIECE) {
      byte[] b = new byte[n];
      in.readFully(b);
      return b;
    }
    // a large count is believed only as far as bytes arrive: the buffer doubles as it fills, so a
    // peer that lies (before the HELLO's token is checked, anyone may) costs what it really sent
    byte[] b = new byte[FIRST_PIECE];
    int got = 0;
    while (got < n) {
      if (got == b.length) {
        b = Arrays.copyOf(b, (int) Math.min(n, 2L * b.length));
      }
      int k = in.read(b, got, b.length - got);
      if (k < 0) {
        throw new EOFException("the peer sent " + got + " of the " + n + " bytes it announced");
      }
      got += k;
    }
    return b;
  }

  static String readString(DataInputStream in, int max) throws IOException {
    return new String(readBytes(in, max), StandardCharsets.UTF_8);
  }

  static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  static String readString(DataInputStream in) throws IOException {
    return readString(in, MAX_FRAME);
  }

  static byte[] utf8(String s) {
    return s == null ? EMPTY : s.getBytes(StandardCharsets.UTF_8);
  }

  /** Bytes a {@code bytes} field of {@code n} bytes takes. */
  static int sizeOfBytes(int n) {
    return 4 + n;
  }

  /** True if {@code e} means the other side went away rather than a protocol error. */
  static boolean isDisconnect(IOException e) {
    return e instanceof EOFException || e instanceof java.nio.channels.ClosedChannelException
        // a socket channel reports a reset or broken pipe as a plain IOException
        || (e instanceof java.net.SocketException || e.getClass() == IOException.class) && e.getMessage() != null
            && (e.getMessage().contains("reset") || e.getMessage().contains("Broken pipe")
                || e.getMessage().contains("closed"));
  }
}
