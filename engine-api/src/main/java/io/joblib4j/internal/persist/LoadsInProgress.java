package io.joblib4j.internal.persist;

import io.joblib4j.LoadOptions;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that the loads in progress in this JVM are building together. Each load's own limit
 * ({@link LoadOptions#maxHeapBytes()}) keeps one file from filling the heap; this keeps several
 * loads at once from doing it together: their estimates share one budget, the default {@code
 * maxHeapBytes} (half the maximum heap, or {@code -Djoblib4j.load.maxHeapBytes}). A load given a
 * larger limit of its own may take the total up to that limit, so a load alone is bounded by its
 * own limit only. Loads reserve in steps of {@link HeapBudget#STEP}, so the counter is touched once
 * per step, not per object.
 */
final class LoadsInProgress {
  private static final AtomicLong RESERVED = new AtomicLong();
  /** The shared budget; tests lower it. */
  static volatile long budget = LoadOptions.defaults().maxHeapBytes();

  private LoadsInProgress() {}

  /**
   * Adds {@code bytes} to the reservations of a load that holds {@code held} already and may build
   * {@code ownLimit}; false, reserving nothing, when the total would pass both the budget and that
   * limit.
   */
  static boolean reserve(long bytes, long held, long ownLimit) {
    long bound = Math.max(budget, ownLimit);
    while (true) {
      long total = RESERVED.get();
      if (total + bytes > bound && total > held) {
        return false; // over, and not by this load alone
      }
      if (RESERVED.compareAndSet(total, total + bytes)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} a finished load had reserved. */
  static void release(long bytes) {
    RESERVED.addAndGet(-bytes);
  }

  /** What all loads in progress hold now. */
  static long reserved() {
    return RESERVED.get();
  }
}
