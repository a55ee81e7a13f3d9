package io.joblib4j;

import org.apiguardian.api.API;

/**
 * A cache entry whose stored bytes fail their checks (truncated, flipped, or another entry's file).
 * {@code Memory} recomputes such entries itself; only {@link MemorizedResult#get()} reports them.
 */
@API(status = API.Status.STABLE, since = "0.1")
public class CorruptCacheEntryException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /**
   * A damaged entry.
   *
   * @param message which entry, and what was wrong
   * @param cause the error that showed it
   */
  public CorruptCacheEntryException(String message, Throwable cause) {
    super(message, cause);
  }
}
