package io.joblib4j.internal.memory;

import io.joblib4j.internal.Warnings;
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
    long now = System.nanoTime();
    Long last = LAST.get(location);
    if (last != null && now - last < QUIET_NANOS) {
      return;
    }
    LAST.put(location, now);
    Warnings.warn(StoreTrouble.class, "the cache at " + location + " cannot be used (" + e
        + "); calls compute their results without caching until it can.");
  }
}
