package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What a new entry sets off: the sweep of its stage's abandoned data folders and the location's
 * limits. Both list, and a full prune may read records, which costs a miss more than its own work
 * on a fast write; so they run when due, not after every new entry:
 *
 * <ul>
 *   <li>the sweep of a stage at most once per {@code min(sweepAge, 1 hour)} per JVM (it only removes
 *       folders older than the sweep age, so running it more often finds nothing new);
 *   <li>a full prune at most once a minute per JVM and location, and at once when this JVM's new
 *       entries since the last one take the location over a count or size limit (counted here from
 *       what the last prune left). Entries other JVMs add are seen by the next full prune.
 * </ul>
 *
 * The state is per JVM, as the entries a JVM writes are; times come from the cache's clock.
 */
final class Maintenance {
  static final Duration PRUNE_INTERVAL = Duration.ofMinutes(1);
  static final Duration MAX_SWEEP_INTERVAL = Duration.ofHours(1);

  /** Location and stage folder -> when this JVM last swept it. */
  private static final ConcurrentMap<String, Instant> SWEPT = new ConcurrentHashMap<>();
  /** Location -> what the last full prune left, plus the entries published here since. */
  private static final ConcurrentMap<String, Tally> TALLIES = new ConcurrentHashMap<>();

  /** Entries and bytes at a location as this JVM knows them, since its last full prune at {@code pruned}. */
  private record Tally(Instant pruned, int entries, long bytes) {
    Tally plus(EntryRecord r) {
      return new Tally(pruned, entries + 1, bytes + r.bytes());
    }
  }

  private final EntryCatalog catalog;
  private final StageSettings settings;
  private final String location;

  Maintenance(EntryCatalog catalog, StageSettings settings) {
    this.catalog = catalog;
    this.settings = settings;
    this.location = catalog.store().location().toString();
  }

  /** After {@code published} was published by this JVM. Failures are warnings: the entry is stored. */
  void afterPublish(EntryRecord published) {
    Instant now = settings.clock().instant();
    try {
      if (sweepDue(published.stage(), now)) {
        catalog.sweep(published.stage(), settings.sweepAge(), now);
      }
      if (settings.limited()) {
        Tally t = TALLIES.computeIfPresent(location, (k, v) -> v.plus(published));
        if (t == null || !now.isBefore(t.pruned().plus(PRUNE_INTERVAL)) || over(t)) {
          EntryCatalog.Pruned p = catalog.prune(settings.limits(), now, Set.of(published.stage() + "/" + published.key()),
              false);
          TALLIES.put(location, new Tally(now, p.keptEntries(), p.keptBytes()));
        }
      }
    } catch (IOException | RuntimeException e) {
      Warnings.warn(StageRunner.class, "cannot sweep or prune the stage cache at " + location + ": " + e.getMessage());
    }
  }

  private boolean sweepDue(String stage, Instant now) {
    Duration interval = settings.sweepAge().compareTo(MAX_SWEEP_INTERVAL) < 0 ? settings.sweepAge() : MAX_SWEEP_INTERVAL;
    String at = location + "\n" + stage;
    Instant[] due = new Instant[1];
    SWEPT.compute(at, (k, last) -> {
      if (last == null || !now.isBefore(last.plus(interval))) {
        due[0] = now;
        return now;
      }
      return last;
    });
    return due[0] != null;
  }

  private boolean over(Tally t) {
    return settings.maxEntries() > 0 && t.entries() > settings.maxEntries()
        || settings.maxBytes() > 0 && t.bytes() > settings.maxBytes();
  }
}
