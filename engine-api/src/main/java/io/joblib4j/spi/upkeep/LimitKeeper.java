package io.joblib4j.spi.upkeep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.joblib4j.CacheLimits;
import io.joblib4j.spi.Store;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apiguardian.api.API;

/**
 * Keeps a cache with {@link CacheLimits} within them after every store, without listing the cache at
 * every store: {@code Memory}'s {@code bytesLimit}/{@code itemsLimit}/{@code ageLimit} and the stage
 * cache's limits both keep theirs here, so both make the same promise.
 *
 * <p>Each JVM keeps a running total per cache: the totals of its last listing (less what it pruned)
 * plus what it stored since. A store only adds to the total. The cache is listed again — and, if a
 * limit is exceeded, pruned least recently used first ({@link PrunePlanner}) down to the cache's low
 * water mark ({@link Cache#lowWaterPercent}) of the byte and item limits, so that the next listing is a
 * while away — when the total passes a limit, when this JVM has not listed yet, or when the last
 * listing is older than {@link Cache#relistAfter} (what other JVMs stored meanwhile is then seen, and
 * the age limit applied). A JVM that starts adopts the totals another wrote into the cache's book
 * after its last listing, if they are recent, instead of listing itself.
 *
 * <p><b>The bound.</b> With N JVMs storing into a cache, it holds at most N times the limit, plus the
 * entries whose stores are under way at that moment (at most one per storing thread); once every
 * store has returned, at most N times the limit. Likewise for the item limit. Why: a store that takes
 * this JVM's total past a limit does not return before a listing made after it has counted it — its
 * own thread lists and prunes, or waits for the thread of this JVM that is doing so. So at any moment
 * each JVM has stored at most the limit since its last listing (a JVM that never listed: since it
 * started), beyond the stores under way. Take the JVM whose last listing started last: the cache
 * holds at most what that listing left (its total is within the limit together with what that JVM
 * stored since), plus what every other JVM stored since its own last listing, at most the limit each.
 *
 * <p>Nothing here waits for a thread to get the CPU in time: there is no background pruner; a store
 * past a limit waits for this JVM's pruner rather than going on; and it prunes even when another JVM
 * holds the cache's prune lock (a {@link Lease}, so that a dead pruner does not block the others),
 * which that JVM may hold paused mid-prune for as long as the scheduler likes. The lock only spares
 * listings: a refresh that is merely due by time leaves its turn to the holder. Clocks only decide
 * when to list early, which can only tighten the bound. Beyond the bound: pinned entries (one this JVM
 * is reading, the entry just published), deletions the store refuses, and a store that cannot be
 * listed (after a failed listing, stores go on unchecked for a second before the next try).
 *
 * <pre>{@code
 * LimitKeeper.of(location).stored(cache, CacheLimits.none().bytes(50L << 30), bytesJustStored);
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class LimitKeeper {
  private static final Duration LOCK_LEASE = Duration.ofMinutes(2);
  private static final long TROUBLE_PAUSE_NANOS = Duration.ofSeconds(1).toNanos();
  private static final long LOCK_RETRY_NANOS = Duration.ofSeconds(1).toNanos();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ConcurrentHashMap<String, LimitKeeper> BY_CACHE = new ConcurrentHashMap<>();

  /**
   * One cache as the keeper sees it: where its book and prune lock live, how its entries are listed
   * and deleted, and the keeper's pace for it. A cache may hand a new instance to every {@link
   * #stored} call (e.g. one that pins the entry just published); the running totals belong to the
   * {@link LimitKeeper}.
   *
   * @param <T> the cache's own type of entry
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public interface Cache<T> {
    /**
     * Where the cache lives; its book and lock are written here.
     *
     * @return the store
     */
    Store store();

    /**
     * The path of the book, where a listing's totals are left for other JVMs, e.g. {@code
     * .joblib4j/usage.json}.
     *
     * @return a path in the store
     */
    String book();

    /**
     * The path of the prune lock's {@link Lease}, e.g. {@code .joblib4j/locks/prune}.
     *
     * @return a path in the store
     */
    String lock();

    /**
     * Every entry, as the planner's candidates, pinned where it must stay.
     *
     * @return the listing
     * @throws IOException if the cache cannot be listed
     */
    List<PrunePlanner.Candidate<T>> list() throws IOException;

    /**
     * Deletes an entry the plan chose.
     *
     * @param entry the entry
     * @throws IOException if it cannot be deleted (it is then left for the next listing)
     */
    void delete(T entry) throws IOException;

    /**
     * The clock the age limit counts back from.
     *
     * @return the cache's clock
     */
    default Clock clock() {
      return Clock.systemUTC();
    }

    /**
     * The time the keeper paces its listings by, in nanoseconds from an arbitrary origin; {@link
     * System#nanoTime} unless a test moves time by hand.
     *
     * @return now, in nanoseconds
     */
    default long nanoTime() {
      return System.nanoTime();
    }

    /**
     * How old a listing may get before a store lists again.
     *
     * @return 30 seconds unless the cache says otherwise
     */
    default Duration relistAfter() {
      return Duration.ofSeconds(30);
    }

    /**
     * Down to what share of a byte or item limit a prune goes once a limit was passed, so that the next
     * listing is a while away.
     *
     * @return a percentage, 90 unless the cache says otherwise; 100 prunes to the limit itself
     */
    default int lowWaterPercent() {
      return 90;
    }

    /**
     * Told what a prune will delete, after the listing and before the first deletion (tests pause a
     * pruner here, as a scheduler that gives it no CPU would).
     *
     * @param doomed the entries the plan chose
     */
    default void planned(List<T> doomed) {}

    /** Told by a storing thread that is about to wait for this JVM's pruner (tests count them). */
    default void writerWaits() {}
  }

  private final AtomicLong baseBytes = new AtomicLong();
  private final AtomicLong baseItems = new AtomicLong();
  private final AtomicLong addedBytes = new AtomicLong();
  private final AtomicLong addedItems = new AtomicLong();
  private final AtomicLong listings = new AtomicLong();
  private final ReentrantLock refreshing = new ReentrantLock();
  private volatile boolean known;
  /**
   * Whether this JVM listed the cache once. Only before that does it adopt another JVM's book: the
   * book may be older than this JVM's own last listing, and would then miss what this JVM stored
   * between the two.
   */
  private volatile boolean listedOnce;
  private volatile long listedAtNanos;
  /** After another JVM held the prune lock: not before this (nanoTime) again. */
  private volatile long retryAtNanos;
  private volatile boolean retrying;
  /** After a listing failed: no listing before this (nanoTime), not one at every store of a failing store. */
  private volatile long troubleUntilNanos;
  private volatile boolean inTrouble;

  private LimitKeeper() {}

  /**
   * This JVM's keeper of the cache called {@code cache} (its location, and what kind of cache it is
   * when several share one location).
   *
   * @param cache names the cache
   * @return the keeper, the same for the same name
   */
  public static LimitKeeper of(String cache) {
    return BY_CACHE.computeIfAbsent(cache, c -> new LimitKeeper());
  }

  /**
   * After a prune or clear by hand: the next store to the cache lists again.
   *
   * @param cache names the cache, as for {@link #of}
   */
  public static void forget(String cache) {
    LimitKeeper k = BY_CACHE.get(cache);
    if (k != null) {
      k.known = false;
    }
  }

  /**
   * A store of {@code bytes} was published: adds it, and lists and prunes when due. When this JVM's
   * total is over a limit (or it never listed), the storing thread does not return before a listing
   * made after its store has counted it — its own, or one it waited for — whoever holds the CPU or the
   * prune lock meanwhile. Never throws: a cache in trouble is left alone for a second.
   *
   * @param cache the cache
   * @param limits its limits; nothing is done when none is set
   * @param bytes the bytes just stored
   * @param <T> the cache's type of entry
   */
  public <T> void stored(Cache<T> cache, CacheLimits limits, long bytes) {
    if (limits == null || limits.bytes() == null && limits.items() == null && limits.age() == null) {
      return;
    }
    addedBytes.addAndGet(bytes);
    addedItems.incrementAndGet();
    if (mustList(cache, limits)) {
      if (!refreshing.tryLock()) {
        cache.writerWaits();
        refreshing.lock(); // the bound is kept by stores waiting for the pruner, not by stores going on
      }
      refreshHeld(cache, limits, true);
    } else if (mayList(cache, limits) && refreshing.tryLock()) {
      refreshHeld(cache, limits, false);
    }
  }

  /**
   * The bytes this JVM believes the cache holds.
   *
   * @return the last listing's total, less what was pruned, plus what this JVM stored since
   */
  public long estimatedBytes() {
    return baseBytes.get() + addedBytes.get();
  }

  /**
   * The entries this JVM believes the cache holds.
   *
   * @return as {@link #estimatedBytes}, in entries
   */
  public long estimatedItems() {
    return baseItems.get() + addedItems.get();
  }

  /**
   * How many listings this JVM made of the cache.
   *
   * @return the count
   */
  public long listings() {
    return listings.get();
  }

  /** With {@link #refreshing} held: lists (and prunes) if still due, then lets go of it. */
  private <T> void refreshHeld(Cache<T> cache, CacheLimits limits, boolean hard) {
    try {
      if (hard ? mustList(cache, limits) : mayList(cache, limits)) {
        refresh(cache, limits, hard);
        if (!hard && mustList(cache, limits)) {
          // the listing found more than this JVM counted on (other JVMs' stores) while stores here went
          // on under the old total: prune now, not at the next store, which may never come
          refresh(cache, limits, true);
        }
      }
    } catch (IOException | RuntimeException e) {
      // the store is in trouble: try again after a while, not at every store
      troubleUntilNanos = cache.nanoTime() + TROUBLE_PAUSE_NANOS;
      inTrouble = true;
    } finally {
      refreshing.unlock();
    }
  }

  private boolean troubled(Cache<?> cache) {
    return inTrouble && cache.nanoTime() - troubleUntilNanos < 0;
  }

  /** Whether a store must not return before a listing: this JVM never listed, or its total passed a limit. */
  private boolean mustList(Cache<?> cache, CacheLimits limits) {
    return !troubled(cache) && (!known || overALimit(limits));
  }

  private boolean overALimit(CacheLimits limits) {
    return limits.bytes() != null && estimatedBytes() > limits.bytes()
        || limits.items() != null && estimatedItems() > limits.items();
  }

  /** Whether the last listing is old enough to list again (see other JVMs' stores, apply the age limit). */
  private boolean mayList(Cache<?> cache, CacheLimits limits) {
    if (troubled(cache) || retrying && cache.nanoTime() - retryAtNanos < 0) {
      return false;
    }
    return mustList(cache, limits) || cache.nanoTime() - listedAtNanos >= cache.relistAfter().toNanos();
  }

  /**
   * Lists the cache and prunes it. A {@code hard} refresh (a limit passed) prunes even when another JVM
   * holds the prune lock: that JVM may be paused mid-prune for as long as the scheduler likes, and
   * two pruners only delete the same least recently used entries twice. A refresh only because the
   * listing is old leaves its turn to the lock's holder.
   */
  private <T> void refresh(Cache<T> cache, CacheLimits limits, boolean hard) throws IOException {
    Store store = cache.store();
    if (!listedOnce && !known && adoptBook(cache) && !overALimit(limits)
        && cache.nanoTime() - listedAtNanos <= cache.relistAfter().toNanos()) {
      return;
    }
    boolean locked = takeLock(cache);
    if (!locked && !hard) {
      // another JVM is pruning: look again in a second, not at every store
      retryAtNanos = cache.nanoTime() + LOCK_RETRY_NANOS;
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
      List<PrunePlanner.Candidate<T>> all = cache.list();
      listings.incrementAndGet();
      long total = 0;
      for (PrunePlanner.Candidate<T> c : all) {
        total += c.bytes();
      }
      List<T> doomed = PrunePlanner.plan(all, targets(limits, total, all.size(), cache.lowWaterPercent()),
          cache.clock().instant());
      cache.planned(doomed);
      Map<T, Long> sizes = new IdentityHashMap<>();
      for (PrunePlanner.Candidate<T> c : all) {
        sizes.put(c.entry(), c.bytes());
      }
      long freed = 0;
      int deleted = 0;
      for (T entry : doomed) {
        try {
          cache.delete(entry);
          freed += sizes.get(entry);
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
      listedAtNanos = cache.nanoTime();
      known = true;
      listedOnce = true;
      inTrouble = false;
      writeBook(cache, total - freed, all.size() - deleted);
    } finally {
      if (locked) {
        releaseLock(cache);
      }
    }
  }

  /** A limit that was passed is pruned down to its low water mark; the age limit applies as it is. */
  private static CacheLimits targets(CacheLimits limits, long bytes, long items, int lowWaterPercent) {
    Long bytesTarget = limits.bytes() != null && bytes > limits.bytes() ? limits.bytes() * lowWaterPercent / 100 : null;
    Long itemsTarget = limits.items() != null && items > limits.items() ? limits.items() * lowWaterPercent / 100 : null;
    return new CacheLimits(bytesTarget, itemsTarget, limits.age());
  }

  private static boolean takeLock(Cache<?> cache) {
    try {
      return Lease.take(cache.store(), cache.lock(), "prune", LOCK_LEASE.toMillis());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void releaseLock(Cache<?> cache) {
    try {
      cache.store().delete(cache.lock());
    } catch (IOException | RuntimeException e) {
      // it expires
    }
  }

  /** Takes the totals another JVM booked after its listing, if they are recent. */
  private boolean adoptBook(Cache<?> cache) {
    try {
      Optional<InputStream> in = cache.store().open(cache.book());
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
      if (ageMillis < 0 || ageMillis > cache.relistAfter().toMillis()) {
        return false;
      }
      baseBytes.set(n.path("bytes").asLong());
      baseItems.set(n.path("items").asLong());
      listedAtNanos = cache.nanoTime() - ageMillis * 1_000_000;
      known = true;
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void writeBook(Cache<?> cache, long bytes, long items) {
    try {
      ObjectNode n = JSON.createObjectNode();
      n.put("bytes", bytes);
      n.put("items", items);
      n.put("listedAt", System.currentTimeMillis());
      cache.store().replace(cache.book(), JSON.writeValueAsBytes(n));
    } catch (IOException | RuntimeException e) {
      // the book only saves other JVMs a listing
    }
  }
}
