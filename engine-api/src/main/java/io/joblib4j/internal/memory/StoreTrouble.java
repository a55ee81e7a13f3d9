package io.joblib4j.internal.memory;

import io.joblib4j.spi.support.Warnings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Warns that a store cannot be reached or used — and calls go on computing without the cache —
 * at most once a minute per location (or per function, for results that cannot be serialized), so
 * that an outage, a read-only or a full store does not flood the logs with one warning per call.
 * Without an SLF4J binding (where warnings go nowhere), each such trouble is also told once on stderr.
 */
final class StoreTrouble {
  private static final long QUIET_NANOS = 60_000_000_000L;
  private static final Map<String, Long> LAST = new ConcurrentHashMap<>();
  /** What was told on stderr for lack of an SLF4J binding: once per location (or function) and JVM. */
  private static final java.util.Set<String> ON_STDERR = ConcurrentHashMap.newKeySet();

  private StoreTrouble() {}

  static void warn(String location, Exception e) {
    warnOnce(location, "the cache at " + location + " cannot be used (" + brief(e)
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
    if (noLogger() && ON_STDERR.add(location)) {
      // without an SLF4J binding a warning goes nowhere: a cache that does not work must not go
      // unnoticed, so this one line reaches stderr, as joblib's warnings do (once, not per call)
      System.err.println("joblib4j WARNING: " + message + " (said once; add an SLF4J binding, such as"
          + " slf4j-simple, to see joblib4j's warnings as they happen)");
    }
  }

  private static boolean noLogger() {
    return org.slf4j.LoggerFactory.getILoggerFactory() instanceof org.slf4j.helpers.NOPLoggerFactory;
  }

  /**
   * The first line of {@code e}'s description: Hadoop puts the server's whole stack trace into the
   * message of an exception it unwraps from an RPC, which in a warning is noise.
   */
  static String brief(Throwable e) {
    String s = e.toString();
    int end = s.indexOf('\n');
    return end < 0 ? s : s.substring(0, end).stripTrailing() + " ...";
  }
}
