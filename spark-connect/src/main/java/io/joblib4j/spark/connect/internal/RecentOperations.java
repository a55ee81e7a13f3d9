package io.joblib4j.spark.connect.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long each function's last Connect operation took, which decides whether the batches the core
 * cuts together may share one operation ({@link ConnectCall#submitAll}). Sharing saves a whole
 * operation's cost (a plan to analyze, a job to schedule: tens of milliseconds), but the operation
 * answers only when its last batch ends, so a failing batch is reported, and the call cancelled,
 * only then. Batches share an operation only when the same function's last one took under {@link
 * #SHARE_BELOW_NANOS} (the backend option {@code shareBelow}): a failure then waits at most about that long; a function seen for the first
 * time gets an operation per batch.
 */
final class RecentOperations {
  /** Operations shorter than this may carry several batches, unless the option shareBelow says otherwise. */
  static final long SHARE_BELOW_NANOS = 1_000_000_000L;
  /** Functions remembered; past it the memory starts again (a program calls few functions this way). */
  private static final int MAX_FUNCTIONS = 1024;

  private final Map<String, Long> lastNanos = new ConcurrentHashMap<>();
  private final long shareBelowNanos;

  /** @param shareBelowNanos operations shorter than this may carry several batches; 0: never */
  RecentOperations(long shareBelowNanos) {
    this.shareBelowNanos = shareBelowNanos;
  }

  /** Whether batches of {@code function} may share an operation. */
  boolean mayShare(String function) {
    Long last = lastNanos.get(function);
    return last != null && last < shareBelowNanos;
  }

  /** An operation running batches of {@code function} succeeded in {@code nanos}. */
  void took(String function, long nanos) {
    if (lastNanos.size() >= MAX_FUNCTIONS && !lastNanos.containsKey(function)) {
      lastNanos.clear();
    }
    lastNanos.put(function, nanos);
  }
}
