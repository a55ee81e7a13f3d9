package io.joblib4j.internal.memory;

import io.joblib4j.spi.Warnings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warns that a store cannot be reached or used — and calls go on computing without the cache —
 * at most once a minute per location, so that an outage does not flood the logs.
 */
final class StoreTrouble {
  private static final long QUIET_NANOS = 60_000_000_000L;
  private static final Map<String, Long> LAST = new ConcurrentHashMap<>();

  private StoreTrouble() {}

  static void warn(String location, Exception e) {
    warnOnce(location, "the cache at " + location + " cannot be used (" + e
        + "); calls compute their results without caching until it can.");
  }

  /** Gives {@code message} unless a warning about {@code location} was given in the last minute. */
  static void warnOnce(String location, String message) {
    long now = System.nanoTime();
    Long last = LAST.get(location);
    if (last != null && now - last < QUIET_NANOS) {
      return;
    }
    LAST.put(location, now);
    Warnings.warn(StoreTrouble.class, message);
  }

  /**
   * Whether {@code e} says the store cannot be reached (connection refused, timeouts), as opposed to
   * a problem of this one write (disk full, a result that cannot be serialized).
   */
  static boolean isOutage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException || t instanceof java.net.SocketTimeoutException
          || t instanceof java.net.NoRouteToHostException || t instanceof java.net.UnknownHostException) {
        return true;
      }
    }
    return false;
  }
}
