package io.joblib4j.internal.parallel;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** The one daemon thread that checks running batches against their call's timeout. */
final class Watchdog {
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "joblib4j-timeout-watchdog");
    t.setDaemon(true);
    return t;
  });

  private Watchdog() {}

  /** Runs {@code check} every {@code periodNanos} until the returned future is cancelled. */
  static ScheduledFuture<?> every(long periodNanos, Runnable check) {
    return TIMER.scheduleAtFixedRate(check, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
  }
}
