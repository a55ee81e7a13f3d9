package io.joblib4j.spi.worker;

import io.joblib4j.spi.Batch;
import java.io.IOException;
import org.apiguardian.api.API;

/**
 * How a backend ships large task arguments once per call instead of once per batch: the processes
 * backend writes them to files its workers map, the spark backend makes them broadcasts. While a
 * batch is serialized, every object in it passes through the {@link Replacer} the sharer prepared
 * for that batch, which returns the object itself (to copy it) or a small serializable reference.
 * The reference resolves itself in the worker ({@code readResolve}) to the shared copy.
 *
 * <p>One sharer serves one call, from the thread that submits batches; {@link #close} frees what
 * it shared when the call ends.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface ArgumentSharer extends AutoCloseable {

  /**
   * How to write the objects of {@code batch}; called before it is serialized.
   *
   * @param batch the batch about to be serialized
   * @return the replacer for its objects
   * @throws IOException if a large argument could not be shared
   */
  Replacer prepare(Batch batch) throws IOException;

  /** The call is over: free the files or broadcasts. Idempotent. */
  @Override
  default void close() {}

  /**
   * Shares nothing: every argument is copied into every batch.
   *
   * @return the sharer
   */
  static ArgumentSharer none() {
    return batch -> Replacer.NONE;
  }

  /** What to serialize in place of an object. */
  @FunctionalInterface
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  interface Replacer {
    /** Writes every object as itself. */
    Replacer NONE = object -> object;

    /**
     * {@code object}, or the reference to write instead.
     *
     * @param object an object of the batch
     * @return what to write
     * @throws IOException if it could not be shared
     */
    Object replace(Object object) throws IOException;
  }
}
