package io.joblib4j.spark.stages.internal;

import io.joblib4j.spi.support.Warnings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What a new entry sets off: the sweep of its stage's abandoned data folders, and the location's
 * limits. Both list, which costs a miss more than its own work on a fast write, so they run when due,
 * not after every new entry:
 *
 * <ul>
 *   <li>the sweep of a stage at most once per {@code min(sweepAge, 1 hour)} per JVM (it only removes
 *       folders older than the sweep age, so running it more often finds nothing new);
 *   <li>the limits by the {@link io.joblib4j.spi.upkeep.LimitKeeper} every Memory shares ({@link
 *       StageLimits}): a listing and prune when this JVM's new entries take the location over a count
 *       or size limit, and at most once a minute otherwise.
 * </ul>
 *
 * The sweep's state is per JVM, as the entries a JVM writes are; times come from the cache's clock.
 */
final class Maintenance {
  static final Duration MAX_SWEEP_INTERVAL = Duration.ofHours(1);

  /** Location and stage folder -> when this JVM last swept it. */
  private static final ConcurrentMap<String, Instant> SWEPT = new ConcurrentHashMap<>();

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
    } catch (IOException | RuntimeException e) {
      Warnings.warn(StageRunner.class, "cannot sweep the stage cache at " + location + ": " + e.getMessage());
    }
    StageLimits.published(catalog, settings, published);
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
}
