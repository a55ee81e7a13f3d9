package io.joblib4j;

import org.apiguardian.api.API;

/** A {@link MemorizedResult} whose entry is gone: cleared, evicted by {@code reduceSize}, or never stored. */
@API(status = API.Status.STABLE, since = "0.1")
public class MissingCacheEntryException extends JoblibException {
  private static final long serialVersionUID = 1L;

  /**
   * An entry that is not there.
   *
   * @param message which entry
   */
  public MissingCacheEntryException(String message) {
    super(message);
  }
}
