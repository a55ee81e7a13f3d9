package io.joblib4j.spark.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * What this driver JVM has sent to executors through the spark backend, for tests and
 * benchmarks that check large arguments travel once: bytes of batches, and the number and
 * estimated bytes of the arguments shipped as broadcasts instead.
 */
public final class ChannelStats {
  private static final LongAdder BATCH_BYTES = new LongAdder();
  private static final LongAdder BATCHES = new LongAdder();
  private static final LongAdder BROADCASTS = new LongAdder();
  private static final LongAdder BROADCAST_BYTES = new LongAdder();

  private ChannelStats() {}

  static void batchSent(long bytes) {
    BATCHES.increment();
    BATCH_BYTES.add(bytes);
  }

  static void broadcastMade(long estimatedBytes) {
    BROADCASTS.increment();
    BROADCAST_BYTES.add(estimatedBytes);
  }

  /** Bytes of serialized batches sent to workers, re-sends after a lost executor included. */
  public static long batchBytes() {
    return BATCH_BYTES.sum();
  }

  /** Batches sent to workers. */
  public static long batches() {
    return BATCHES.sum();
  }

  /** Arguments shipped as broadcasts. */
  public static long broadcasts() {
    return BROADCASTS.sum();
  }

  /** Their size as estimated on the driver (exact for arrays of primitives), before Spark's compression. */
  public static long broadcastBytes() {
    return BROADCAST_BYTES.sum();
  }
}
