package io.joblib4j.internal.processes;

import java.time.Duration;
import java.util.Objects;

/**
 * What makes workers interchangeable: how they are launched, the thread budget they were started
 * with, and the timeouts (loky reuses its executor only for equal arguments, environment and
 * timeout too), and how long they outlive this JVM ({@link WarmWorkers}).
 */
record PoolKey(LaunchSpec launch, int threadBudget, Duration idleTimeout, Duration startTimeout, Duration keepWarm) {

  /** A key for workers that end with this JVM. */
  PoolKey(LaunchSpec launch, int threadBudget, Duration idleTimeout, Duration startTimeout) {
    this(launch, threadBudget, idleTimeout, startTimeout, Duration.ZERO);
  }

  /** Whether idle workers are parked for the next program when this JVM exits. */
  boolean keepsWarm() {
    return !keepWarm.isZero();
  }

  // equals and hashCode by hand: a record's generated ones bootstrap through method handles, which
  // costs a fresh JVM's first call some 20 ms (this key is the first record a call hashes)
  @Override
  public boolean equals(Object o) {
    return o instanceof PoolKey k && threadBudget == k.threadBudget && sameFamily(k);
  }

  @Override
  public int hashCode() {
    return Objects.hash(launch, threadBudget, idleTimeout, startTimeout, keepWarm);
  }

  /** True if {@code other} differs at most by thread budget: a pool it can replace. */
  boolean sameFamily(PoolKey other) {
    return launch.equals(other.launch) && idleTimeout.equals(other.idleTimeout)
        && startTimeout.equals(other.startTimeout) && keepWarm.equals(other.keepWarm);
  }
}
