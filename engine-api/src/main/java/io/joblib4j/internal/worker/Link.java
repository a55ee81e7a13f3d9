package io.joblib4j.internal.worker;

import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.FailureKind;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.Hello;
import io.joblib4j.spi.worker.WorkerLink;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * engine-api's {@link WorkerLink}: the parent's end of one worker's connection. It remembers which
 * initializer the worker has run, so that {@link #sendBatch} ships its bytes only until the worker
 * started a batch after receiving them.
 */
public final class Link implements WorkerLink {
  private final Closeable connection;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final Hello hello;
  private final Set<InitKey> initialized = new HashSet<>();
  private final Map<Long, InitKey> initializing = new HashMap<>();
  private volatile Path spillFolder;

  private Link(Closeable connection, DataInputStream in, DataOutputStream out, Hello hello) {
    this.connection = connection;
    this.in = in;
    this.out = out;
    this.hello = hello;
  }

  /**
   * Reads the HELLO of a connection just accepted, allowing it {@code handshakeTimeout}. The
   * caller then checks {@link Hello#proves} and {@link Hello#compatible} before anything else, and
   * closes the link if either fails.
   *
   * @param socket the connection a worker opened
   * @param handshakeTimeout how long it may take to say hello
   * @return the link
   * @throws IOException if the peer said something else, too much, or nothing in time; the socket
   *     is closed
   */
  public static Link accept(Socket socket, Duration handshakeTimeout) throws IOException {
    try {
      socket.setTcpNoDelay(true); // frames are small and a reply waits for each: no Nagle delays
      socket.setKeepAlive(true);
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, handshakeTimeout.toMillis())));
      Link link = accept(socket.getInputStream(), socket.getOutputStream(), socket);
      socket.setSoTimeout(0);
      return link;
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      throw e;
    }
  }

  /**
   * Reads the HELLO from {@code input}, for a connection that is not a plain socket (an encrypted
   * channel, or a worker's frames carried back inside a Spark job); the caller bounds how long
   * the read may take. Then as {@link #accept(Socket, Duration)}.
   *
   * @param input what the worker sends
   * @param output what goes to the worker
   * @param connection closed by {@link #close}
   * @return the link, whose {@link #hello} the caller checks before anything else
   * @throws IOException if the peer said something else, too much, or nothing; {@code connection}
   *     is closed
   */
  public static Link accept(InputStream input, OutputStream output, Closeable connection) throws IOException {
    try {
      DataInputStream in = new DataInputStream(new BufferedInputStream(input, 1 << 16));
      Hello hello = readHello(in);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(output, 1 << 16));
      return new Link(connection, in, out, hello);
    } catch (IOException | RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  /**
   * The HELLO, read whole into a buffer of at most {@code Frames.MAX_HELLO} bytes first: before a
   * peer has proven itself, no count it declares may make the parent allocate or wait for more.
   */
  private static Hello readHello(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 1 || length > Frames.MAX_HELLO) {
      throw new StreamCorruptedException("bad frame length " + length);
    }
    byte[] frame = new byte[length];
    in.readFully(frame);
    DataInputStream body = new DataInputStream(new ByteArrayInputStream(frame));
    if (body.readByte() != Frames.HELLO) {
      throw new StreamCorruptedException("the peer did not say HELLO");
    }
    int version = body.readInt();
    byte[] token = Frames.readBytes(body, body.available());
    String scope = Frames.readString(body, body.available());
    if (version != Hello.VERSION) {
      return new Hello(version, token, scope, "a worker of protocol version " + version, 0, -1);
    }
    return new Hello(version, token, scope, Frames.readString(body, body.available()), body.readLong(),
        body.readLong());
  }

  @Override
  public void acceptSpilledResults(Path folder) {
    this.spillFolder = Objects.requireNonNull(folder, "folder");
  }

  @Override
  public Hello hello() {
    return hello;
  }

  @Override
  public String worker() {
    return hello.worker();
  }

  @Override
  public void sendBatch(long job, byte[] initializer, byte[] batch) throws IOException {
    byte[] init = Frames.EMPTY;
    if (initializer != null) {
      InitKey key = new InitKey(initializer);
      synchronized (initialized) {
        if (!initialized.contains(key)) {
          init = initializer;
          initializing.put(job, key);
        }
      }
    }
    synchronized (out) {
      writeBatch(out, job, init, batch);
      out.flush();
    }
  }

  /**
   * What {@link #sendBatch} and then {@link #sendExit} would send, as bytes, for a transport that
   * carries a worker's input in one piece rather than over a live connection (the spark backend's
   * fallback ships it inside a Spark task, to a {@link WorkerLoop} serving it from memory).
   *
   * @param job an id the worker's reports about this batch carry
   * @param initializer the call's serialized initializer, or null
   * @param batch the serialized batch ({@link BatchCodec#encodeBatch})
   * @return the BATCH frame followed by the EXIT frame
   */
  public static byte[] batchThenExit(long job, byte[] initializer, byte[] batch) {
    byte[] init = initializer == null ? Frames.EMPTY : initializer;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(batch.length + init.length + 32);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writeBatch(out, job, init, batch);
      Frames.writeHeader(out, 0, Frames.EXIT);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  private static void writeBatch(DataOutputStream out, long job, byte[] init, byte[] batch) throws IOException {
    Frames.writeHeader(out, 8 + Frames.sizeOfBytes(init.length) + Frames.sizeOfBytes(batch.length), Frames.BATCH);
    out.writeLong(job);
    Frames.writeBytes(out, init);
    Frames.writeBytes(out, batch);
  }

  @Override
  public void sendRelease(String callId) throws IOException {
    byte[] id = Frames.utf8(callId);
    synchronized (out) {
      Frames.writeHeader(out, Frames.sizeOfBytes(id.length), Frames.RELEASE);
      Frames.writeBytes(out, id);
      out.flush();
    }
  }

  /** Tells the worker's loop to return; a worker already gone is fine (the link then closes). */
  public void sendExit() {
    try {
      synchronized (out) {
        Frames.writeHeader(out, 0, Frames.EXIT);
        out.flush();
      }
    } catch (IOException e) {
      close();
    }
  }

  @Override
  public void sendPark(byte[] note) throws IOException {
    synchronized (out) {
      Frames.writeHeader(out, Frames.sizeOfBytes(note.length), Frames.PARK);
      Frames.writeBytes(out, note);
      out.flush();
    }
  }

  @Override
  public void readFrames(Events events) throws IOException {
    while (true) {
      byte type = Frames.readType(in, Frames.MAX_FRAME);
      switch (type) {
        case Frames.STARTED -> {
          long job = in.readLong();
          synchronized (initialized) {
            InitKey ran = initializing.remove(job);
            if (ran != null) {
              initialized.add(ran);
            }
          }
          events.started(job);
        }
        case Frames.PROGRESS -> {
          long job = in.readLong();
          events.progress(job, in.readInt());
        }
        case Frames.OUTCOME -> {
          long job = in.readLong();
          byte[] results = Frames.readBytes(in);
          forget(job);
          events.outcome(job, results);
        }
        case Frames.SPILLED -> {
          long job = in.readLong();
          String name = Frames.readString(in, 255);
          long length = in.readLong();
          Path folder = spillFolder;
          if (folder == null) {
            throw new StreamCorruptedException("worker " + worker() + " spilled results to a file, which this"
                + " connection does not take");
          }
          if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".") || length < 0) {
            throw new StreamCorruptedException("worker " + worker() + " named a bad spill file \"" + name + "\"");
          }
          forget(job);
          events.spilledOutcome(job, folder.resolve(name), length);
        }
        case Frames.FAILED -> {
          long job = in.readLong();
          FailureKind kind = Frames.failureKind(in.readByte());
          int task = in.readInt();
          String message = Frames.readString(in);
          String className = Frames.readString(in);
          String path = Frames.readString(in);
          byte[] exception = Frames.readBytes(in);
          byte[] standIn = Frames.readBytes(in);
          forget(job);
          events.failed(job, new FailureReport(kind, task, message, className.isEmpty() ? null : className, path,
              exception, standIn));
        }
        case Frames.EXITING -> events.exiting(Frames.readString(in));
        case Frames.OUTPUT -> {
          int stream = in.readByte();
          byte[] bytes = Frames.readBytes(in);
          if (stream != 1 && stream != 2) {
            throw new StreamCorruptedException("worker " + worker() + " sent output for stream " + stream);
          }
          events.output(stream, bytes);
        }
        case Frames.PARKED -> events.parked();
        default -> throw new StreamCorruptedException("unknown frame type " + type + " from worker " + worker());
      }
    }
  }

  private void forget(long job) {
    synchronized (initialized) {
      initializing.remove(job);
    }
  }

  /**
   * True if {@code e} means the other side went away, rather than a protocol error.
   *
   * @param e an exception {@link #readFrames} threw
   * @return whether the worker went away
   */
  public static boolean isDisconnect(IOException e) {
    return Frames.isDisconnect(e);
  }

  /** Drops the connection at once: the worker's next read fails. Idempotent. */
  @Override
  public void close() {
    closeQuietly(connection);
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing is all we wanted
    }
  }

  @Override
  public String toString() {
    return worker();
  }
}
