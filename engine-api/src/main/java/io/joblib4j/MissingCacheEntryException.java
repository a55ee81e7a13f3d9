package io.joblib4j;

/** A {@link MemorizedResult} whose entry is gone: cleared, evicted by {@code reduceSize}, or never stored. */
public class MissingCacheEntryException extends JoblibException {
  private static final long serialVersionUID = 1L;

  public MissingCacheEntryException(String message) {
    super(message);
  }
}
