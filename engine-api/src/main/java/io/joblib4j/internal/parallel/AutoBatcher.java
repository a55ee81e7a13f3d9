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
 *
 * <p>Unlike joblib, the size is capped ({@link BatchLimits}): at {@code maxBatchTasks}, and at as
 * many tasks as fit in {@code maxBatchBytes} by the estimated heap bytes of a task and its result
 * ({@link HeapFootprint}, sampled by the call). joblib's rule alone grows a batch of tiny tasks to
 * millions of tasks, all taken from the input at once and held in the caller's heap, which is
 * slower than a bounded batch, not faster: the thread that takes them does so while the other
 * workers wait.
 */
final class AutoBatcher {
  static final long MIN_IDEAL_NANOS = 200_000_000L;
  static final long MAX_IDEAL_NANOS = 2_000_000_000L;

  private final int maxTasks;
  private final long maxBytes;
  private int effectiveSize = 1;
  private double smoothedNanos;
  private double taskBytes;
  private double resultBytes;

  AutoBatcher(BatchLimits limits) {
    this.maxTasks = limits.maxBatchTasks();
    this.maxBytes = limits.maxBatchBytes();
  }

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
    next = Math.min(next, cap());
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

  /** Records the estimated heap bytes of a sampled task. */
  synchronized void taskSampled(long bytes) {
    taskBytes = smoothed(taskBytes, bytes);
  }

  /** Records the estimated heap bytes of a sampled result. */
  synchronized void resultSampled(long bytes) {
    resultBytes = smoothed(resultBytes, bytes);
  }

  /**
   * Growth is believed at once (a batch of large tasks must not wait for an average to catch up);
   * a fall halves the distance per sample, so one small task among large ones does not open the cap.
   */
  private static double smoothed(double old, long sample) {
    return sample >= old ? sample : (old + sample) / 2;
  }

  /** The most tasks a batch may hold now: the count cap, or fewer if their bytes would exceed the byte cap. */
  synchronized int cap() {
    double perTask = Math.max(1, taskBytes + resultBytes);
    return (int) Math.max(1, Math.min(maxTasks, maxBytes / perTask));
  }

  /** The size currently in use, for tests and progress messages. */
  synchronized int currentSize() {
    return effectiveSize;
  }
}
