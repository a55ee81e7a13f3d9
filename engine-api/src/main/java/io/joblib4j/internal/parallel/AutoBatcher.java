package io.joblib4j.internal.parallel;

/**
 * joblib's adaptive batch size ({@code AutoBatchingMixin}): batches grow until one takes at least
 * {@link #MIN_IDEAL_NANOS} and shrink when one takes more than {@link #MAX_IDEAL_NANOS}, at most
 * doubling per step, with durations smoothed by an exponential moving average. A batch's duration
 * runs from its dispatch to its completion, so it includes queueing and transfer, which is what
 * batching amortizes. One instance per call, so statistics reset per call.
 *
 * <p>Unlike joblib, whose threading backend always uses batches of 1, every backend here batches
 * adaptively: on the JVM, handing a task to another thread costs far more than a tiny task.
 */
final class AutoBatcher {
  static final long MIN_IDEAL_NANOS = 200_000_000L;
  static final long MAX_IDEAL_NANOS = 2_000_000_000L;

  private int effectiveSize = 1;
  private double smoothedNanos;

  /** The batch size to use for the next dispatch. */
  synchronized int batchSize() {
    int old = effectiveSize;
    int next = old;
    if (smoothedNanos > 0 && smoothedNanos < MIN_IDEAL_NANOS) {
      long ideal = (long) (old * (MIN_IDEAL_NANOS / smoothedNanos)) * 2;
      next = (int) Math.max(1, Math.min(2L * old, Math.min(ideal, Integer.MAX_VALUE / 2)));
    } else if (smoothedNanos > MAX_IDEAL_NANOS && old >= 2) {
      long ideal = (long) (old * (MIN_IDEAL_NANOS / smoothedNanos));
      next = (int) Math.max(1, 2 * ideal);
    }
    if (next != old) {
      effectiveSize = next;
      smoothedNanos = 0; // a new size starts a new measurement
    }
    return next;
  }

  /** Records that a batch of {@code size} tasks took {@code nanos}; other sizes are ignored. */
  synchronized void batchCompleted(int size, long nanos) {
    if (size != effectiveSize) {
      return;
    }
    smoothedNanos = smoothedNanos == 0 ? nanos : 0.8 * smoothedNanos + 0.2 * nanos;
  }

  /** The size currently in use, for tests and progress messages. */
  synchronized int currentSize() {
    return effectiveSize;
  }
}
