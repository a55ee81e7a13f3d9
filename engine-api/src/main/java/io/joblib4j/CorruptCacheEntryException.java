package io.joblib4j;

/**
 * A cache entry whose stored bytes fail their checks (truncated, flipped, or another entry's file).
 * {@code Memory} recomputes such entries itself; only {@link MemorizedResult#get()} reports them.
 */
public class CorruptCacheEntryException extends JoblibException {
  private static final long serialVersionUID = 1L;

  public CorruptCacheEntryException(String message, Throwable cause) {
    super(message, cause);
  }
}
