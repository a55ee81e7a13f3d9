package io.joblib4j.spi.worker;

import io.joblib4j.spi.Batch;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.apiguardian.api.API;

/**
 * A worker's side of the protocol, the same for every backend whose workers are other JVMs: it
 * says hello, then runs the batches the parent sends, one at a time, until told to exit.
 *
 * <p>For each batch it runs the call's initializer first if this JVM has not run it yet (once per
 * JVM, however many loops it runs), deserializes the batch, runs it through {@link Batch#run}
 * (which applies the core's nesting rules) while a reporter thread sends coalesced progress, and
 * sends back the results. What cannot travel is reported, never lost: a task's exception that
 * cannot be serialized goes back as a {@link io.joblib4j.RemoteTaskException} stand-in (the parent
 * also gets the stand-in in case it cannot deserialize the original); a result that cannot be
 * serialized fails the batch naming the task, the class and the field path.
 *
 * <pre>{@code
 * WorkerLoop loop = WorkerLoop.builder("executor 3 on host-a").build();
 * loop.serve(socketToTheParent, token, callId);   // returns when the parent says EXIT
 * }</pre>
 *
 * <p>Not thread-safe, except {@link #exiting} and {@link #output}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface WorkerLoop {
  /**
   * A loop for the worker called {@code name} in messages, e.g. {@code "process 4711"}.
   *
   * @param name the worker's name
   * @return a new builder
   */
  static Builder builder(String name) {
    return WorkerProtocol.installed().loop(name);
  }

  /**
   * True if {@code e} means the parent went away, rather than a protocol error.
   *
   * @param e an exception {@link #serve} threw
   * @return whether the parent went away
   */
  static boolean isDisconnect(IOException e) {
    return WorkerProtocol.installed().isDisconnect(e);
  }

  /**
   * The worker's name, as messages give it.
   *
   * @return the name
   */
  String name();

  /**
   * Says hello on {@code socket} with {@code token} and {@code scope} ({@link Hello}), then serves
   * batches. Returns when the parent says EXIT, or after a batch when the stop condition holds;
   * throws when the connection breaks (the parent went away or dropped this worker).
   *
   * @param socket the connection to the parent
   * @param token the secret the parent gave this worker
   * @param scope what this worker serves, e.g. a call id, or {@code ""}
   * @throws IOException when the connection breaks or the parent says something the protocol does
   *     not
   */
  void serve(Socket socket, byte[] token, String scope) throws IOException;

  /**
   * As {@link #serve(Socket, byte[], String)} over a connection that is not a plain socket: an
   * encrypted channel, or a parent's frames carried in memory ({@link WorkerLink#batchThenExit})
   * with the worker's frames collected in memory.
   *
   * @param input what the parent sends
   * @param output where the worker's frames go
   * @param token the secret that proves the parent started this worker
   * @param scope what the worker serves, e.g. its call id; may be ""
   * @throws IOException when the connection breaks
   */
  void serve(InputStream input, OutputStream output, byte[] token, String scope) throws IOException;

  /**
   * Whether {@link #serve} returned because the parent said PARK (after {@link Builder#onPark} ran
   * and PARKED was sent).
   *
   * @return whether the parent parked this worker
   */
  boolean parked();

  /**
   * A stream whose bytes go to the parent in OUTPUT frames, for a worker whose own stdout or
   * stderr does not reach the parent (a worker adopted by a parent that did not start it). Each
   * write or flush is one frame; bytes written while no connection is served, or after it broke, are
   * dropped. Any thread.
   *
   * @param stream 1 for the parent's stdout, 2 for its stderr
   * @return the stream
   */
  OutputStream output(int stream);

  /**
   * Tells the parent this JVM is exiting on its own (a task called {@code System.exit}, or SIGTERM)
   * and why, so that its crash report can say so. Silent once the parent said EXIT. For a shutdown
   * hook; any thread.
   *
   * @param note why the JVM is exiting
   */
  void exiting(String note);

  /** How a worker loop is set up. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  interface Builder {
    /**
     * How objects are serialized; the parent's {@link BatchCodec} must use the same. {@link
     * WireFormat#PORTABLE} by default.
     *
     * @param format the format
     * @return this builder
     */
    Builder wireFormat(WireFormat format);

    /**
     * Reads the plain batches a parent's {@link BatchCodec} wrote with the same {@code fields}
     * ({@link BatchCodec.Builder#batchFields}). Without it, a plain batch is refused as unreadable.
     *
     * @param fields the fields of the backend's batches besides their tasks
     * @return this builder
     */
    Builder batchFields(BatchFields fields);

    /**
     * Where classes of batches come from; the serving thread's context class loader by default.
     *
     * @param loader the loader
     * @return this builder
     */
    Builder classLoader(ClassLoader loader);

    /**
     * What to send back in place of objects in results, e.g. a memory-mapped array as its file
     * region.
     *
     * @param replacer what to write in place of each object of the results
     * @return this builder
     */
    Builder resultReplacer(ArgumentSharer.Replacer replacer);

    /**
     * Told the call id when the parent says a call ended, to drop what the worker holds for it.
     *
     * @param onRelease told the id of each call that ended
     * @return this builder
     */
    Builder onRelease(Consumer<String> onRelease);

    /**
     * Fails a batch whose serialized results exceed {@code bytes} (0: no limit), with {@code advice}
     * appended to the message (what the limit is and how to raise it).
     *
     * @param bytes the limit, or 0 for none
     * @param advice what the limit is and how to raise it
     * @return this builder
     */
    Builder maxResultBytes(long bytes, String advice);

    /**
     * Told, after each batch, how many of its tasks succeeded.
     *
     * @param onBatchDone told the number of tasks that succeeded
     * @return this builder
     */
    Builder onBatchDone(IntConsumer onBatchDone);

    /**
     * Told each batch once it was read, before any of its tasks runs (e.g. to learn what the tasks'
     * code may do to the arguments the worker keeps across calls).
     *
     * @param beforeTasksRun told each batch before it runs
     * @return this builder
     */
    Builder beforeTasksRun(Consumer<Batch> beforeTasksRun);

    /**
     * A lock the loop holds while a batch's tasks run, taken before the parent is told the batch
     * started: whoever else takes it (e.g. something that pauses the whole JVM, such as a
     * class-data-sharing dump) neither pauses a running task nor eats into its timeout.
     *
     * @param lock held by the serving thread from a batch's start to its last task's end
     * @return this builder
     */
    Builder whileTasksRun(Lock lock);

    /**
     * Checked after each batch: the loop returns when it holds (e.g. the Spark task was
     * interrupted).
     *
     * @param condition whether to stop
     * @return this builder
     */
    Builder stopAfterBatchIf(BooleanSupplier condition);

    /**
     * What the worker does when the parent says PARK, before the loop answers PARKED and {@link
     * WorkerLoop#serve} returns: it stops treating this parent's end as its own (the processes
     * backend's workers kept warm for the next program). Without it, PARK is a protocol error.
     *
     * @param action given the note the parent sent with PARK
     * @return this builder
     */
    Builder onPark(Consumer<byte[]> action);

    /**
     * Results whose serialized form exceeds {@code overBytes} are written to a file in {@code
     * folder} that the parent reads and deletes, instead of travelling in the connection: for a
     * parent on the same machine (the processes backend), whose {@link WorkerLink} reads {@code
     * folder} ({@link WorkerLink#acceptSpilledResults}). Results then have no 2 GiB limit. Off by
     * default: a remote parent cannot read the worker's files.
     *
     * @param folder where the files go, a folder only this user may enter
     * @param overBytes results above this many bytes serialized are spilled
     * @return this builder
     */
    Builder spillResults(Path folder, long overBytes);

    /**
     * The loop.
     *
     * @return the loop, ready to {@link WorkerLoop#serve}
     */
    WorkerLoop build();
  }
}
