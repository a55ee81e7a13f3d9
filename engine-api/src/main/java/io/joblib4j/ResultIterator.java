package io.joblib4j;

import java.util.Iterator;
import org.apiguardian.api.API;

/**
 * The results of {@link Parallel#iterate} or {@link Parallel#iterateUnordered}, streamed as tasks
 * finish. Closing it before the end cancels the tasks still running (so does dropping it: the
 * garbage collector's cleanup aborts an abandoned call, with a warning, as joblib does).
 *
 * @param <R> the result type
 */
@API(status = API.Status.STABLE, since = "0.1")
public interface ResultIterator<R> extends Iterator<R>, AutoCloseable {

  /** Stops the call if results remain: running tasks are cancelled. Idempotent. */
  @Override
  void close();
}
