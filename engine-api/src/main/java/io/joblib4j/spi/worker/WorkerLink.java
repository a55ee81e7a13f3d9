package io.joblib4j.spi.worker;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The parent's end of one worker's connection: the handshake, the frames the parent sends, and
 * the loop that reads what the worker reports ({@link Events}). Sends may come from any thread;
 * {@link #readFrames} runs in one thread of the backend's own.
 *
 * <p>The link also remembers which initializer the worker has run: {@link #sendBatch} ships the
 * initializer's bytes only until the worker has started a batch after receiving them.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class WorkerLink implements Closeable {
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final Hello hello;
  private final Set<InitKey> initialized = new HashSet<>();
  private final Map<Long, InitKey> initializing = new HashMap<>();

  private WorkerLink(Socket socket, DataInputStream in, DataOutputStream out, Hello hello) {
    this.socket = socket;
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
  public static WorkerLink accept(Socket socket, Duration handshakeTimeout) throws IOException {
    try {
      socket.setTcpNoDelay(true); // frames are small and a reply waits for each: no Nagle delays
      socket.setKeepAlive(true);
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, handshakeTimeout.toMillis())));
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
      if (Frames.readType(in, Frames.MAX_HELLO) != Frames.HELLO) {
        throw new StreamCorruptedException("the peer did not say HELLO");
      }
      int version = in.readInt();
      byte[] token = Frames.readBytes(in);
      String scope = Frames.readString(in);
      Hello hello;
      if (version != Hello.VERSION) {
        hello = new Hello(version, token, scope, "a worker of protocol version " + version, 0, -1);
      } else {
        hello = new Hello(version, token, scope, Frames.readString(in), in.readLong(), in.readLong());
      }
      socket.setSoTimeout(0);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
      return new WorkerLink(socket, in, out, hello);
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      throw e;
    }
  }

  /**
   * What the worker said when it connected.
   *
   * @return the worker's hello
   */
  public Hello hello() {
    return hello;
  }

  /**
   * The worker's name, for messages.
   *
   * @return the name
   */
  public String worker() {
    return hello.worker();
  }

  /**
   * Sends a batch to run.
   *
   * @param job an id the worker's reports about this batch carry
   * @param initializer the call's serialized initializer ({@link BatchCodec#encodeInitializer}), or null
   * @param batch the serialized batch ({@link BatchCodec#encodeBatch})
   * @throws IOException if the worker is gone
   */
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
      Frames.writeHeader(out, 8 + Frames.sizeOfBytes(init.length) + Frames.sizeOfBytes(batch.length), Frames.BATCH);
      out.writeLong(job);
      Frames.writeBytes(out, init);
      Frames.writeBytes(out, batch);
      out.flush();
    }
  }

  /**
   * Tells the worker a call ended, so that it drops what it holds for it (shared arrays).
   *
   * @param callId the call's id
   * @throws IOException if the worker is gone
   */
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

  /**
   * Reads what the worker reports and tells {@code events}, until the connection ends; then throws
   * the IOException that ended it ({@link #isDisconnect} tells a worker gone from a protocol
   * error). Never returns normally.
   *
   * @param events told what the worker reports
   * @throws IOException when the connection ends, always
   */
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
        case Frames.FAILED -> {
          long job = in.readLong();
          FailureKind kind = FailureKind.of(in.readByte());
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
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing is all we wanted
    }
  }

  @Override
  public String toString() {
    return worker();
  }

  /** What a worker reports, told from the link's reading thread. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public interface Events {
    /**
     * The batch {@code job} began running (its initializer, if any, ran).
     *
     * @param job the batch's id
     */
    void started(long job);

    /**
     * {@code tasksDone} tasks of batch {@code job} have finished.
     *
     * @param job the batch's id
     * @param tasksDone how many of its tasks finished
     */
    void progress(long job, int tasksDone);

    /**
     * Every task of batch {@code job} succeeded; {@link BatchCodec#completed} reads the results.
     *
     * @param job the batch's id
     * @param results the serialized results
     */
    void outcome(long job, byte[] results);

    /**
     * Batch {@code job} did not succeed; {@link BatchCodec#failed} turns the report into the
     * caller's error.
     *
     * @param job the batch's id
     * @param report what the worker reported
     */
    void failed(long job, FailureReport report);

    /**
     * The worker's JVM is exiting on its own, for the reason given (who called {@code
     * System.exit}).
     *
     * @param note why the worker exits
     */
    default void exiting(String note) {}
  }
}
