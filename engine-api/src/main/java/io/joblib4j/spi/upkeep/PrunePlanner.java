package io.joblib4j.spi.upkeep;

import io.joblib4j.CacheLimits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Which entries a prune deletes so that a cache keeps its {@link CacheLimits}, as joblib's {@code
 * reduce_size} chooses them: least recently used first, until at most the bytes and entries allowed
 * remain, and every entry unused for longer than the age limit. An age limit of zero means every
 * entry not used at this very instant. Pinned entries (one this JVM is reading, the entry a writer
 * just published) are never chosen, and still count against the limits.
 *
 * <p>The plan is computed from a listing alone and deletes nothing, so that a dry run reports
 * exactly what the real run then deletes: {@code Memory.prune}, {@code Memory.reduceSize}, the
 * limits a Memory keeps after every store, the stage cache's limits and the {@code joblib4j prune}
 * commands all plan here.
 *
 * <pre>{@code
 * List<PrunePlanner.Candidate<String>> listed = List.of(
 *     new PrunePlanner.Candidate<>("a", "a", 8, Instant.parse("2026-01-03T00:00:00Z"), false),
 *     new PrunePlanner.Candidate<>("b", "b", 5, Instant.parse("2026-01-02T00:00:00Z"), false),
 *     new PrunePlanner.Candidate<>("c", "c", 2, Instant.parse("2026-01-01T00:00:00Z"), false));
 * List<String> doomed = PrunePlanner.plan(listed, CacheLimits.none().bytes(10), Instant.now());   // [c, b]
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class PrunePlanner {
  private PrunePlanner() {}

  /**
   * One entry as a listing shows it.
   *
   * @param entry the caller's own description of the entry, returned in the plan
   * @param id a stable name that breaks ties between entries last used at the same instant (its path)
   * @param bytes the bytes it takes
   * @param lastAccess when it was last used
   * @param pinned whether it must be kept whatever the limits say
   * @param <T> the caller's type of entry
   */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public record Candidate<T>(T entry, String id, long bytes, Instant lastAccess, boolean pinned) {
    /**
     * Checks the fields.
     *
     * @param entry the entry
     * @param id its stable name
     * @param bytes its size
     * @param lastAccess when it was last used
     * @param pinned whether it must be kept
     * @throws NullPointerException if {@code id} or {@code lastAccess} is null
     */
    public Candidate {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(lastAccess, "lastAccess");
    }
  }

  /**
   * The entries to delete, least recently used first.
   *
   * @param candidates every entry of the cache (or of the part being pruned)
   * @param limits the limits to keep
   * @param now the instant the age limit counts back from
   * @param <T> the caller's type of entry
   * @return the entries to delete, in the order to delete them
   */
  public static <T> List<T> plan(List<Candidate<T>> candidates, CacheLimits limits, Instant now) {
    List<Candidate<T>> byAccess = new ArrayList<>(candidates);
    byAccess.sort(Comparator.comparing((Candidate<T> c) -> c.lastAccess()).thenComparing(Candidate::id));
    long bytes = 0;
    for (Candidate<T> c : byAccess) {
      bytes += c.bytes();
    }
    long count = byAccess.size();
    Instant oldestAllowed = limits.age() == null ? null : now.minus(limits.age());
    List<T> doomed = new ArrayList<>();
    for (Candidate<T> c : byAccess) {
      boolean tooBig = limits.bytes() != null && bytes > limits.bytes();
      boolean tooMany = limits.items() != null && count > limits.items();
      boolean tooOld = oldestAllowed != null && c.lastAccess().isBefore(oldestAllowed);
      if (!tooBig && !tooMany && !tooOld) {
        break; // in order of use: every later entry is younger, and the sizes hold
      }
      if (c.pinned()) {
        continue;
      }
      doomed.add(c.entry());
      bytes -= c.bytes();
      count--;
    }
    return doomed;
  }
}
