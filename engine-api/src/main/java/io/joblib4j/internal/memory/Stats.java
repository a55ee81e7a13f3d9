package io.joblib4j.internal.memory;

import io.joblib4j.CacheStats;
import io.joblib4j.MissReason;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@code Memory.stats()}: one set per Memory in each JVM. */
public final class Stats {
  private final LongAdder hits = new LongAdder();
  private final LongAdder stores = new LongAdder();
  private final EnumMap<MissReason, LongAdder> misses = new EnumMap<>(MissReason.class);

  Stats() {
    for (MissReason r : MissReason.values()) {
      misses.put(r, new LongAdder());
    }
  }

  void hit() {
    hits.increment();
  }

  void miss(MissReason reason) {
    misses.get(reason).increment();
  }

  void stored() {
    stores.increment();
  }

  /** A snapshot. */
  public CacheStats snapshot() {
    Map<MissReason, Long> m = new EnumMap<>(MissReason.class);
    long total = 0;
    for (Map.Entry<MissReason, LongAdder> e : misses.entrySet()) {
      long n = e.getValue().sum();
      m.put(e.getKey(), n);
      total += n;
    }
    return new CacheStats(hits.sum(), total, stores.sum(), m.get(MissReason.DAMAGED), m);
  }

  /** Sets every counter to 0. */
  public void reset() {
    hits.reset();
    stores.reset();
    misses.values().forEach(LongAdder::reset);
  }
}
