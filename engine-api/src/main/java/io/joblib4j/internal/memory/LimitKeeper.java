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
 * <p>Each JVM keeps a running estimate per location: the totals of its last listing plus what it
 * stored since. A store only adds to the estimate. The cache is listed again — and, if a limit is
 * exceeded, pruned least recently used first down to {@value #LOW_WATER_PERCENT}% of the byte and
 * item limits, so that the next listing is a while away — when the estimate passes a limit, or when
 * the last listing is older than {@link #refresh} (what other JVMs stored meanwhile is then seen; and
 * the age limit applied). A JVM that starts adopts the totals another wrote into the book {@code
 * .joblib4j/usage.json} after its last listing, if they are recent, instead of listing itself.
 *
 * <p>Of the JVMs sharing a location one prunes at a time: it holds a lock entry {@code
 * .joblib4j/locks/prune} (create-if-absent, with an expiry so that a dead pruner does not block the
 * others); the others skip their turn. Pruning never deletes an entry this JVM is reading ({@link
 * OpenReads}); a reader in another JVM whose entry is pruned under it recomputes. So the cache can
 * exceed a limit by what other JVMs stored since their last listing, at most {@link #refresh}'s
 * worth, and is back within it at the next listing.
 */
final class LimitKeeper {
  static final int LOW_WATER_PERCENT = 90;
  static final String BOOK = ".joblib4j/usage.json";
  static final String LOCK = ".joblib4j/locks/prune";
  private static final Duration LOCK_LEASE = Duration.ofMinutes(2);
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
  private volatile long listedAtNanos;
  /** After another JVM held the prune lock: not before this (nanoTime) again. */
  private volatile long retryAtNanos = Long.MIN_VALUE;
  private volatile boolean retrying;
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

  /** A store of {@code bytes} published: add it, and list and prune when due. Never throws. */
  static void stored(CacheSettings settings, Store store, long bytes) {
    CacheLimits limits = settings.limits();
    if (limits == null) {
      return;
    }
    LimitKeeper k = of(settings.location());
    k.addedBytes.addAndGet(bytes);
    k.addedItems.incrementAndGet();
    if (k.due(limits) && k.refreshing.tryLock()) {
      try {
        if (k.due(limits)) {
          k.refresh(settings, store, limits);
        }
      } catch (IOException | RuntimeException e) {
        k.listedAtNanos = System.nanoTime(); // the store is in trouble: try again after a while, not at every store
        k.known = true;
      } finally {
        k.refreshing.unlock();
      }
    }
  }

  long estimatedBytes() {
    return baseBytes.get() + addedBytes.get();
  }

  long estimatedItems() {
    return baseItems.get() + addedItems.get();
  }

  private boolean due(CacheLimits limits) {
    if (retrying && System.nanoTime() - retryAtNanos < 0) {
      return false;
    }
    if (!known || System.nanoTime() - listedAtNanos > refresh.toNanos()) {
      return true;
    }
    return limits.bytes() != null && estimatedBytes() > limits.bytes()
        || limits.items() != null && estimatedItems() > limits.items();
  }

  private void refresh(CacheSettings settings, Store store, CacheLimits limits) throws IOException {
    if (!known && adoptBook(store)) {
      if (!due(limits)) {
        return;
      }
    }
    Lock lock = Lock.take(store);
    if (lock == null) {
      // another JVM is pruning: look again in a second, not at every store
      retryAtNanos = System.nanoTime() + 1_000_000_000L;
      retrying = true;
      return;
    }
    retrying = false;
    try {
      long addedB = addedBytes.getAndSet(0);
      long addedI = addedItems.getAndSet(0);
      List<CacheEntry> all;
      try {
        all = Catalog.entries(store, "", false);
      } catch (IOException | RuntimeException e) {
        addedBytes.addAndGet(addedB);
        addedItems.addAndGet(addedI);
        throw e;
      }
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
      baseBytes.set(total - freed);
      baseItems.set(all.size() - deleted);
      listedAtNanos = System.nanoTime();
      known = true;
      writeBook(store, total - freed, all.size() - deleted);
    } finally {
      lock.release();
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
