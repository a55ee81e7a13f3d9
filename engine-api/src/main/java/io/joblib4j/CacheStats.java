package io.joblib4j;

import java.util.EnumMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * How the calls of a {@link Memory}'s memoized functions went in this JVM since it was made (or the
 * counters were {@link Memory#resetStats() reset}): a snapshot of {@link Memory#stats()}. Each JVM
 * counts its own calls: a copy of the Memory on a Spark executor or a child JVM has its own counts.
 *
 * @param hits calls answered from the store
 * @param misses calls that computed (every miss has a reason in {@code missesByReason})
 * @param stores results this JVM published to the store
 * @param recomputesAfterDamage misses that found a damaged entry and recomputed it (the {@link
 *     MissReason#DAMAGED} count)
 * @param missesByReason the misses per reason; every reason present, 0 if none
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CacheStats(long hits, long misses, long stores, long recomputesAfterDamage,
    Map<MissReason, Long> missesByReason) {

  /**
   * Copies the map, filling in absent reasons with 0.
   *
   * @param hits calls answered from the store
   * @param misses calls that computed
   * @param stores results published to the store
   * @param recomputesAfterDamage misses that found a damaged entry
   * @param missesByReason the misses per reason
   */
  public CacheStats {
    EnumMap<MissReason, Long> all = new EnumMap<>(MissReason.class);
    for (MissReason r : MissReason.values()) {
      all.put(r, missesByReason == null ? 0L : missesByReason.getOrDefault(r, 0L));
    }
    missesByReason = java.util.Collections.unmodifiableMap(all);
  }

  /**
   * The misses for one reason.
   *
   * @param reason the reason
   * @return how many misses had it
   */
  public long misses(MissReason reason) {
    return missesByReason.get(reason);
  }

  /**
   * Hits over all calls that looked at the store.
   *
   * @return the hit ratio, 0 when there were no calls
   */
  public double hitRatio() {
    long calls = hits + misses;
    return calls == 0 ? 0 : (double) hits / calls;
  }
}
