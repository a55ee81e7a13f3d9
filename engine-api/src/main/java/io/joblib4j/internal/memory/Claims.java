package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.upkeep.Lease;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Single flight across the JVMs sharing a store (opt-in: {@code Memory.builder(...).claimComputations()}):
 * before computing a missing entry, a JVM takes a claim on it in the store — a small entry
 * {@code .joblib4j/claims/<folder>.<key>} published create-if-absent, so one JVM wins — and the
 * others wait for the entry instead of computing it too.
 *
 * <p>A claim has a lease: its holder renews it from a daemon thread every third of the lease while
 * it computes, and deletes it when done. A holder that died stops renewing, so its claim expires
 * within one lease and the next JVM takes it over: a dead claimer never blocks. A waiter polls the
 * entry (20 ms, doubling to 1 s) and computes itself when the claim is released without an entry (the
 * holder failed, or could not store), when it expired, or after waiting {@code maxWait} in all: never
 * forever. The claim is advisory: any failure to take or read one (a store that is down, read-only)
 * means computing without it, never an error. Exceptions are not shared across JVMs: a holder's
 * failure releases the claim, and a waiter then computes (and fails) on its own.
 *
 * @param lease how long a claim lives without renewal
 * @param maxWait how long a waiter waits for another JVM's computation in all
 */
record Claims(Duration lease, Duration maxWait) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;
  static final String FOLDER = ".joblib4j/claims";
  static final String FILE = Lease.FILE;
  static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(30);
  private static final String OWNER = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID();
  private static final ScheduledExecutorService RENEWALS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "joblib4j-claim-renewal");
    t.setDaemon(true);
    return t;
  });

  Claims {
    if (lease.isNegative() || lease.isZero() || maxWait.isNegative()) {
      throw new IllegalArgumentException("a claim's lease must be positive and its wait not negative, got lease "
          + lease + ", maxWait " + maxWait);
    }
  }

  /** The claim's store path for an entry {@code <folder>/<key>}. */
  static String path(String entry) {
    return FOLDER + "/" + entry.replace('/', '.');
  }

  /**
   * Computes {@code entry} under a claim: returns what {@code lookup} finds once another JVM stored
   * it, or else what {@code compute} returns, run by this JVM while holding the claim (or without one,
   * if it cannot be had).
   *
   * @param lookup the stored value, or {@code miss} if there is none
   */
  <T> T compute(Store store, String entry, Object miss, Supplier<Object> lookup, Supplier<T> compute,
      java.util.function.Function<Object, T> found) {
    String claim = path(entry);
    long deadline = System.nanoTime() + maxWait.toNanos();
    long pause = 20;
    while (true) {
      Held held = tryAcquire(store, claim);
      if (held != Held.BUSY) {
        try {
          if (held != Held.UNAVAILABLE) {
            Object stored = lookup.get(); // the previous holder may have stored it just before letting go
            if (stored != miss) {
              return found.apply(stored);
            }
          }
          return compute.get();
        } finally {
          held.release();
        }
      }
      if (System.nanoTime() - deadline > 0) {
        return compute.get(); // waited long enough for a holder that keeps renewing
      }
      sleep(pause);
      pause = Math.min(pause * 2, 1_000);
      Object stored = lookup.get();
      if (stored != miss) {
        return found.apply(stored);
      }
    }
  }

  /** Takes the claim if it is free or expired. */
  private Held tryAcquire(Store store, String claim) {
    try {
      return Lease.take(store, claim, OWNER, lease.toMillis()) ? new Held(store, claim, lease) : Held.BUSY;
    } catch (IOException | RuntimeException e) {
      return Held.UNAVAILABLE; // advisory: compute without it
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      CancellationException c = new CancellationException("interrupted while waiting for another JVM computing"
          + " the same cached result");
      c.initCause(e);
      throw c;
    }
  }

  /** A claim this JVM holds (renewed until released), or the outcomes of trying to take one. */
  private static final class Held {
    static final Held BUSY = new Held();
    static final Held UNAVAILABLE = new Held();
    private final Store store;
    private final String claim;
    private final ScheduledFuture<?> renewal;
    private boolean released;

    private Held() {
      this.store = null;
      this.claim = null;
      this.renewal = null;
    }

    Held(Store store, String claim, Duration lease) {
      this.store = store;
      this.claim = claim;
      long every = Math.max(1, lease.toMillis() / 3);
      this.renewal = RENEWALS.scheduleAtFixedRate(() -> renew(lease), every, every, TimeUnit.MILLISECONDS);
    }

    private synchronized void renew(Duration lease) {
      if (released) {
        return; // a renewal racing the release must not bring the claim back
      }
      try {
        store.replace(claim + "/" + FILE, Lease.record(OWNER, System.currentTimeMillis() + lease.toMillis()));
      } catch (IOException | RuntimeException e) {
        // the claim may expire: another JVM then computes too, which is only wasted work
      }
    }

    synchronized void release() {
      if (store == null) {
        return;
      }
      released = true;
      renewal.cancel(false);
      try {
        store.delete(claim);
      } catch (IOException | RuntimeException e) {
        // it expires within one lease
      }
    }
  }
}
