package io.joblib4j.spark.stages.internal;

import io.joblib4j.CacheLimits;
import java.time.Clock;
import java.time.Duration;

/**
 * A stage cache's settings.
 *
 * @param format the data source the entries are written in ({@code parquet}, {@code orc})
 * @param compression the codec, or null for the format's default
 * @param maxBytes prune to at most this many bytes of data after each new entry, or 0
 * @param maxEntries prune to at most this many entries, or 0
 * @param maxAge delete entries not read for this long, or null
 * @param sweepAge data attempts no entry names are removed once this old
 * @param clock the clock of created and last-access times
 * @param inputChecksums whether input files are also keyed by a checksum of their content where
 *     their store has no identity of its own (HDFS, local files)
 */
public record StageSettings(String format, String compression, long maxBytes, int maxEntries, Duration maxAge,
    Duration sweepAge, Clock clock, boolean inputChecksums) {

  /** The settings without input checksums (the default). */
  public StageSettings(String format, String compression, long maxBytes, int maxEntries, Duration maxAge,
      Duration sweepAge, Clock clock) {
    this(format, compression, maxBytes, maxEntries, maxAge, sweepAge, clock, false);
  }

  public boolean limited() {
    return maxBytes > 0 || maxEntries > 0 || maxAge != null;
  }

  /** The limits as every cache states them (0 bytes or entries: no such limit). */
  public CacheLimits limits() {
    return new CacheLimits(maxBytes > 0 ? maxBytes : null, maxEntries > 0 ? (long) maxEntries : null, maxAge);
  }
}
