package io.joblib4j.spi.worker;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * Where the protocol's implementation comes from: engine-api provides it, listed in its {@code
 * META-INF/services} like every other provider of joblib4j, so that this package holds only the
 * contracts ({@link WorkerLoop}, {@link WorkerLink}, {@link BatchCodec}) and names no internal
 * type. Backends never call it: the static factories of those interfaces do.
 *
 * <p>It is found with the loader that loaded this interface, which is the one that loaded
 * engine-api's jar (or the bundle) and hence its services file, on a driver, an executor or a
 * child JVM alike.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface WorkerProtocol {
  /**
   * A loop for the worker called {@code name}.
   *
   * @param name the worker's name in messages
   * @return a new builder
   */
  WorkerLoop.Builder loop(String name);

  /**
   * A builder for one call's codec.
   *
   * @return a new builder
   */
  BatchCodec.Builder codec();

  /**
   * As {@link WorkerLink#accept(Socket, Duration)}.
   *
   * @param socket the connection a worker opened
   * @param handshakeTimeout how long it may take to say hello
   * @return the link
   * @throws IOException if the peer did not say hello in time
   */
  WorkerLink accept(Socket socket, Duration handshakeTimeout) throws IOException;

  /**
   * As {@link WorkerLink#accept(InputStream, OutputStream, Closeable)}.
   *
   * @param input what the worker sends
   * @param output what goes to the worker
   * @param connection closed by the link's {@code close}
   * @return the link
   * @throws IOException if the peer did not say hello
   */
  WorkerLink accept(InputStream input, OutputStream output, Closeable connection) throws IOException;

  /**
   * As {@link WorkerLink#batchThenExit}.
   *
   * @param job the batch's id
   * @param initializer the serialized initializer, or null
   * @param batch the serialized batch
   * @return the BATCH frame followed by the EXIT frame
   */
  byte[] batchThenExit(long job, byte[] initializer, byte[] batch);

  /**
   * Whether {@code e} means the other side went away, rather than a protocol error.
   *
   * @param e an exception the protocol threw
   * @return whether the peer went away
   */
  boolean isDisconnect(IOException e);

  /**
   * The implementation engine-api installs.
   *
   * @return the protocol
   * @throws IllegalStateException if engine-api's services file is missing (a jar repackaged
   *     without {@code META-INF/services}): says how to repackage it
   */
  static WorkerProtocol installed() {
    return InstalledProtocol.PROTOCOL;
  }
}
