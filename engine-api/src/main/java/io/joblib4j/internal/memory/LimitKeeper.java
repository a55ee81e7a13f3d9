package io.joblib4j.internal.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.joblib4j.CacheEntry;
import io.joblib4j.CacheLimits;
import io.joblib4j.spi.EntryFile;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Keeps a Memory with limits ({@code Memory.builder(...).bytesLimit("50G")}) within them after every
 * store, without listing the cache at every store.
 *
 * <p>Each JVM keeps a running total per location: the totals of its last listing (less what it
 * pruned) plus what it stored since. A store only adds to the total. The cache is listed again — and,
 * if a limit is exceeded, pruned least recently used first down to {@value #LOW_WATER_PERCENT}% of
 * the byte and item limits, so that the next listing is a while away — when the total passes a limit,
 * when this JVM has not listed yet, or when the last listing is older than {@link #refresh} (what
 * other JVMs stored meanwhile is then seen; and the age limit applied). A JVM that starts adopts the
 * totals another wrote into the book {@code .joblib4j/usage.json} after its last listing, if they are
 * recent, instead of listing itself.
 *
 * <p><b>The bound</b> ({@code Memory.Builder.bytesLimit}'s promise): with N JVMs storing into a
 * location, the cache holds at most N times the limit, plus the entries whose stores are under way at
 * that moment (at most one per storing thread); once every store has returned, at most N times the
 * limit. Likewise for the item limit. Why: a store that takes this JVM's total past a limit does not
 * return before a listing made after it has counted it — its own thread lists and prunes, or waits
 * for the thread of this JVM that is doing so. So at any moment each JVM has stored at most the limit
 * since its last listing (a JVM that never listed: since it started), beyond the stores under way.
 * Take the JVM whose last listing started last: the cache holds at most what that listing left (its
 * total is within the limit together with what that JVM stored since), plus what every other JVM
 * stored since its own last listing, at most the limit each.
 *
 * <p>Nothing here waits for a thread to get the CPU in time: there is no background pruner; a store
 * past a limit waits for this JVM's pruner rather than going on; and it prunes even when another JVM
 * holds the prune lock {@code .joblib4j/locks/prune} (create-if-absent, with an expiry so that a dead
 * pruner does not block the others), which that JVM may hold paused mid-prune for as long as the
 * scheduler likes. The lock only spares listings: a refresh that is merely due by time leaves its turn
 * to the holder. Clocks only decide when to list early, which can only tighten the bound. Beyond the
 * bound: entries this JVM is reading, never pruned ({@link OpenReads}; a reader in another JVM whose
 * entry is pruned under it recomputes), deletions the store refuses, and a store that cannot be
 * listed (after a failed listing, stores go on unchecked for a second before the next try).
 */
final class LimitKeeper {
  static final int LOW_WATER_PERCENT = 90;
  static final String BOOK = ".joblib4j/usage.json";
  static final String LOCK = ".joblib4j/locks/prune";
  private static final Duration LOCK_LEASE = Duration.ofMinutes(2);
  private static final Duration TROUBLE_PAUSE = Duration.ofSeconds(1);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ConcurrentHashMap<String, LimitKeeper> BY_LOCATION = new ConcurrentHashMap<>();
  /** How old a listing may get before a store lists again; tests shorten it. */
  static volatile Duration refresh = Duration.ofSeconds(30);
  /**
   * Called with the location by a pruner after it listed and chose what to delete, before it deletes:
   * tests pause the pruner here, as a scheduler that gives it no CPU would.
   */
  static volatile Consumer<String> midPrune = location -> {};
  /** Called with the location by a storing thread about to wait for this JVM's pruner (tests count them). */
  static volatile Consumer<String> writerWaits = location -> {};

  private final String location;
  private final AtomicLong baseBytes = new AtomicLong();
  private final AtomicLong baseItems = new AtomicLong();
  private final AtomicLong addedBytes = new AtomicLong();
  private final AtomicLong addedItems = new AtomicLong();
  private final ReentrantLock refreshing = new ReentrantLock();
  private volatile boolean known;
  /**
   * Whether this JVM listed the location once. Only before that does it adopt another JVM's book: the
   * book may be older than this JVM's own last listing, and would then miss what this JVM stored
   * between the two.
   */
  private volatile boolean listedOnce;
  private volatile long listedAtNanos;
  /** After another JVM held the prune lock: not before this (nanoTime) again. */
  private volatile long retryAtNanos = Long.MIN_VALUE;
  private volatile boolean retrying;
  /** After a listing failed: no listing before this (nanoTime), not one at every store of a failing store. */
  private volatile long troubleUntilNanos;
  private volatile boolean inTrouble;
  /** How many listings this JVM made for the location (tests read it). */
  final AtomicLong listings = new AtomicLong();

  private LimitKeeper(String location) {
    this.location = location;
  }

  static LimitKeeper of(String location) {
    return BY_LOCATION.computeIfAbsent(location, LimitKeeper::new);
  }

  /** After a prune or clear by hand: the next store lists again. */
  static void forget(String location) {
    LimitKeeper k = BY_LOCATION.get(location);
    if (k != null) {
      k.known = false;
    }
  }

  /**
   * A store of {@code bytes} published: add it, and list and prune when due. When this JVM's total is
   * over a limit (or it never listed), the storing thread does not return before a listing made
   * after its store has counted it — its own, or one it waited for — whoever holds the CPU or the
   * prune lock meanwhile. Never throws.
   */
  static void stored(CacheSettings settings, Store store, long bytes) {
    CacheLimits limits = settings.limits();
    if (limits == null) {
      return;
    }
    LimitKeeper k = of(settings.location());
    k.addedBytes.addAndGet(bytes);
    k.addedItems.incrementAndGet();
    if (k.mustList(limits)) {
      if (!k.refreshing.tryLock()) {
        writerWaits.accept(k.location);
        k.refreshing.lock(); // the bound is kept by stores waiting for the pruner, not by stores going on
      }
      k.refreshHeld(settings, store, limits, true);
    } else if (k.mayList(limits) && k.refreshing.tryLock()) {
      k.refreshHeld(settings, store, limits, false);
    }
  }

  /** With {@link #refreshing} held: lists (and prunes) if still due, then lets go of it. */
  private void refreshHeld(CacheSettings settings, Store store, CacheLimits limits, boolean hard) {
    try {
      if (hard ? mustList(limits) : mayList(limits)) {
        refresh(settings, store, limits, hard);
        if (!hard && mustList(limits)) {
          // the listing found more than this JVM counted on (other JVMs' stores) while stores here went
          // on under the old total: prune now, not at the next store, which may never come
          refresh(settings, store, limits, true);
        }
      }
    } catch (IOException | RuntimeException e) {
      // the store is in trouble: try again after a while, not at every store
      troubleUntilNanos = System.nanoTime() + TROUBLE_PAUSE.toNanos();
      inTrouble = true;
    } finally {
      refreshing.unlock();
    }
  }

  long estimatedBytes() {
    return baseBytes.get() + addedBytes.get();
  }

  long estimatedItems() {
    return baseItems.get() + addedItems.get();
  }

  private boolean troubled() {
    return inTrouble && System.nanoTime() - troubleUntilNanos < 0;
  }

  /** Whether a store must not return before a listing: this JVM never listed, or its total passed a limit. */
  private boolean mustList(CacheLimits limits) {
    return !troubled() && (!known || overALimit(limits));
  }

  private boolean overALimit(CacheLimits limits) {
    return limits.bytes() != null && estimatedBytes() > limits.bytes()
        || limits.items() != null && estimatedItems() > limits.items();
  }

  /** Whether the last listing is old enough to list again (see other JVMs' stores, apply the age limit). */
  private boolean mayList(CacheLimits limits) {
    if (troubled() || retrying && System.nanoTime() - retryAtNanos < 0) {
      return false;
    }
    return mustList(limits) || System.nanoTime() - listedAtNanos > refresh.toNanos();
  }

  /**
   * Lists the cache and prunes it. A {@code hard} refresh (a limit passed) prunes even when another JVM
   * holds the prune lock: that JVM may be paused mid-prune for as long as the scheduler likes, and
   * two pruners only delete the same least recently used entries twice. A refresh only because the
   * listing is old leaves its turn to the lock's holder.
   */
  private void refresh(CacheSettings settings, Store store, CacheLimits limits, boolean hard) throws IOException {
    if (!listedOnce && !known && adoptBook(store) && !overALimit(limits)
        && System.nanoTime() - listedAtNanos <= refresh.toNanos()) {
      return;
    }
    Lock lock = Lock.take(store);
    if (lock == null && !hard) {
      // another JVM is pruning: look again in a second, not at every store
      retryAtNanos = System.nanoTime() + 1_000_000_000L;
      retrying = true;
      return;
    }
    retrying = false;
    try {
      // what this JVM stored before the listing starts is in the listing; what it stores from now on
      // stays in addedBytes until the listing is done (counted twice if the listing sees it too: the
      // total errs high, never low, and the stores that pass a limit meanwhile wait for this one)
      long addedB = addedBytes.get();
      long addedI = addedItems.get();
      List<CacheEntry> all = Catalog.entries(store, "", false);
      listings.incrementAndGet();
      long total = all.stream().mapToLong(CacheEntry::sizeBytes).sum();
      Long bytesTarget = limits.bytes() != null && total > limits.bytes() ? limits.bytes() * LOW_WATER_PERCENT / 100 : null;
      Long itemsTarget = limits.items() != null && all.size() > limits.items() ? limits.items() * LOW_WATER_PERCENT / 100 : null;
      Instant oldest = limits.age() == null ? null : settings.clock().instant().minus(limits.age());
      List<CacheEntry> doomed = Pruning.victims(all, bytesTarget, itemsTarget, oldest,
          e -> OpenReads.reading(location, e.path()));
      midPrune.accept(location);
      long freed = 0;
      int deleted = 0;
      for (CacheEntry e : doomed) {
        try {
          store.delete(e.path());
          freed += e.sizeBytes();
          deleted++;
        } catch (IOException | RuntimeException failed) {
          // left for the next listing
        }
      }
      // the new base first, then the stores it holds taken off: the total never reads low in between
      baseBytes.set(total - freed);
      baseItems.set(all.size() - deleted);
      addedBytes.addAndGet(-addedB);
      addedItems.addAndGet(-addedI);
      listedAtNanos = System.nanoTime();
      known = true;
      listedOnce = true;
      inTrouble = false;
      writeBook(store, total - freed, all.size() - deleted);
    } finally {
      if (lock != null) {
        lock.release();
      }
    }
  }

  /** Takes the totals another JVM booked after its listing, if they are recent. */
  private boolean adoptBook(Store store) {
    try {
      Optional<InputStream> in = store.open(BOOK);
      if (in.isEmpty()) {
        return false;
      }
      JsonNode n;
      try (InputStream s = in.get()) {
        n = JSON.readTree(s);
      }
      if (n == null || !n.path("bytes").isNumber() || !n.path("listedAt").isNumber()) {
        return false;
      }
      long ageMillis = System.currentTimeMillis() - n.path("listedAt").asLong();
      if (ageMillis < 0 || ageMillis > refresh.toMillis()) {
        return false;
      }
      baseBytes.set(n.path("bytes").asLong());
      baseItems.set(n.path("items").asLong());
      listedAtNanos = System.nanoTime() - ageMillis * 1_000_000;
      known = true;
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void writeBook(Store store, long bytes, long items) {
    try {
      com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
      n.put("bytes", bytes);
      n.put("items", items);
      n.put("listedAt", System.currentTimeMillis());
      store.replace(BOOK, JSON.writeValueAsBytes(n));
    } catch (IOException | RuntimeException e) {
      // the book only saves other JVMs a listing
    }
  }

  /** The cross-JVM prune lock: an entry published create-if-absent, taken over once expired. */
  private static final class Lock {
    private final Store store;

    private Lock(Store store) {
      this.store = store;
    }

    static Lock take(Store store) {
      try {
        for (int attempt = 0; attempt < 2; attempt++) {
          long expires = System.currentTimeMillis() + LOCK_LEASE.toMillis();
          if (store.publish(LOCK, List.of(EntryFile.of(Claims.FILE, MetadataJson.writeClaim("prune", expires))))
              == Store.Publication.PUBLISHED) {
            return new Lock(store);
          }
          Optional<InputStream> in = store.open(LOCK + "/" + Claims.FILE);
          if (in.isEmpty()) {
            continue; // released this instant
          }
          Optional<Long> until;
          try (InputStream s = in.get()) {
            until = MetadataJson.readClaimExpiry(s);
          } catch (IOException e) {
            until = Optional.empty();
          }
          if (until.isPresent() && until.get() > System.currentTimeMillis()) {
            return null;
          }
          store.delete(LOCK); // its holder died
        }
        return null;
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    void release() {
      try {
        store.delete(LOCK);
      } catch (IOException | RuntimeException e) {
        // it expires
      }
    }
  }
}
