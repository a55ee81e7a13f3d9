package io.joblib4j.spi.worker;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
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
public interface WorkerLink extends Closeable {
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
  static WorkerLink accept(Socket socket, Duration handshakeTimeout) throws IOException {
    return WorkerProtocol.installed().accept(socket, handshakeTimeout);
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
  static WorkerLink accept(InputStream input, OutputStream output, Closeable connection) throws IOException {
    return WorkerProtocol.installed().accept(input, output, connection);
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
  static byte[] batchThenExit(long job, byte[] initializer, byte[] batch) {
    return WorkerProtocol.installed().batchThenExit(job, initializer, batch);
  }

  /**
   * True if {@code e} means the other side went away, rather than a protocol error.
   *
   * @param e an exception {@link #readFrames} threw
   * @return whether the worker went away
   */
  static boolean isDisconnect(IOException e) {
    return WorkerProtocol.installed().isDisconnect(e);
  }

  /**
   * Takes results the worker spilled to files of {@code folder} ({@link
   * WorkerLoop.Builder#spillResults}), for a worker on this machine. Without this, a worker that
   * names a file breaks the protocol: nothing outside a folder the parent chose is ever read.
   *
   * @param folder the folder the worker's loop spills to
   */
  void acceptSpilledResults(Path folder);

  /**
   * What the worker said when it connected.
   *
   * @return the worker's hello
   */
  Hello hello();

  /**
   * The worker's name, for messages.
   *
   * @return the name
   */
  String worker();

  /**
   * Sends a batch to run.
   *
   * @param job an id the worker's reports about this batch carry
   * @param initializer the call's serialized initializer ({@link BatchCodec#encodeInitializer}), or null
   * @param batch the serialized batch ({@link BatchCodec#encodeBatch})
   * @throws IOException if the worker is gone
   */
  void sendBatch(long job, byte[] initializer, byte[] batch) throws IOException;

  /**
   * Tells the worker a call ended, so that it drops what it holds for it (shared arrays).
   *
   * @param callId the call's id
   * @throws IOException if the worker is gone
   */
  void sendRelease(String callId) throws IOException;

  /**
   * Tells the worker to stop serving this parent and wait for another ({@link WorkerLoop.Builder#onPark});
   * it answers PARKED ({@link Events#parked}) as its last frame.
   *
   * @param note what the worker's own code needs to wait (where, for how long)
   * @throws IOException if the worker is gone
   */
  void sendPark(byte[] note) throws IOException;

  /**
   * Reads what the worker reports and tells {@code events}, until the connection ends; then throws
   * the IOException that ended it ({@link #isDisconnect} tells a worker gone from a protocol
   * error). Never returns normally.
   *
   * @param events told what the worker reports
   * @throws IOException when the connection ends, always
   */
  void readFrames(Events events) throws IOException;

  /** Tells the worker's loop to return; a worker already gone is fine (the link then closes). */
  void sendExit();

  /** Drops the connection at once: the worker's next read fails. Idempotent. */
  @Override
  void close();

  /** What a worker reports, told from the link's reading thread. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  interface Events {
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
     * Every task of batch {@code job} succeeded, and the worker wrote the results to {@code file}
     * (see {@link WorkerLink#acceptSpilledResults}); {@link BatchCodec#completed(Path, long,
     * io.joblib4j.spi.Batch, String, io.joblib4j.spi.BatchListener)} reads and deletes it. Only
     * told on a link that accepts spilled results; the default refuses them.
     *
     * @param job the batch's id
     * @param file the file holding the serialized results
     * @param bytes its length
     */
    default void spilledOutcome(long job, Path file, long bytes) {
      throw new UnsupportedOperationException("spilled results are not taken here");
    }

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

    /**
     * What the worker's code printed, for a worker whose own stdout and stderr do not reach this
     * parent ({@link WorkerLoop#output}).
     *
     * @param stream 1 for stdout, 2 for stderr
     * @param bytes what was printed
     */
    default void output(int stream, byte[] bytes) {}

    /** The worker answered PARK: it serves no more batches of this parent. */
    default void parked() {}
  }
}
