package io.joblib4j.internal.processes;

import java.time.Duration;

/**
 * What makes workers interchangeable: how they are launched, the thread budget they were started
 * with, and the timeouts (loky reuses its executor only for equal arguments, environment and
 * timeout too).
 */
record PoolKey(LaunchSpec launch, int threadBudget, Duration idleTimeout, Duration startTimeout) {

  /** True if {@code other} differs at most by thread budget: a pool it can replace. */
  boolean sameFamily(PoolKey other) {
    return launch.equals(other.launch) && idleTimeout.equals(other.idleTimeout)
        && startTimeout.equals(other.startTimeout);
  }
}
