package io.joblib4j.internal.parallel;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names for calls ({@link io.joblib4j.spi.CallSpec#callId()}), unique on this machine: this JVM's
 * pid, a random part and a counter. Not secrets (they name call folders, which are created
 * exclusively and only their owner may enter, and Spark job groups); so not from {@code
 * SecureRandom}, whose first use costs a fresh JVM's first call tens of milliseconds.
 */
final class CallIds {
  private static final String PREFIX = "joblib4j-" + Long.toHexString(ProcessHandle.current().pid()) + "-"
      + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + "-";
  private static final AtomicLong COUNTER = new AtomicLong();

  private CallIds() {}

  /** A new call id, {@code joblib4j-<pid>-<random>-<n>}. */
  static String next() {
    return PREFIX + COUNTER.incrementAndGet();
  }
}
