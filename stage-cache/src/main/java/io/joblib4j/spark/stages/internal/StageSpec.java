package io.joblib4j.spark.stages.internal;

import io.joblib4j.FunctionFingerprint;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One cached stage: its function and its options. Immutable; each option method of the public stage
 * types makes a copy.
 *
 * @param fn the stage function ({@code Fn1} ... {@code Fn4})
 * @param arity how many arguments it takes
 * @param allowNondeterministic whether non-deterministic plans are keyed as they are
 * @param inputKey the user's key for inputs the stage cache cannot see, or null
 * @param refresh whether the next calls recompute and replace the entry
 * @param partitionBy the columns the written data is partitioned by
 * @param compression the data's compression codec, or null for the cache's
 * @param expiresAfter entries older than this are recomputed, or null
 */
public record StageSpec(Object fn, int arity, boolean allowNondeterministic, String inputKey, boolean refresh,
    List<String> partitionBy, String compression, Duration expiresAfter) {

  public StageSpec {
    Objects.requireNonNull(fn, "stage function");
    partitionBy = List.copyOf(partitionBy);
  }

  public static StageSpec of(Object fn, int arity) {
    return new StageSpec(fn, arity, false, null, false, List.of(), null, null);
  }

  public StageSpec allowingNondeterministic() {
    return new StageSpec(fn, arity, true, inputKey, refresh, partitionBy, compression, expiresAfter);
  }

  public StageSpec withInputKey(String key) {
    Objects.requireNonNull(key, "inputKey");
    return new StageSpec(fn, arity, allowNondeterministic, key, refresh, partitionBy, compression, expiresAfter);
  }

  public StageSpec refreshing() {
    return new StageSpec(fn, arity, allowNondeterministic, inputKey, true, partitionBy, compression, expiresAfter);
  }

  public StageSpec partitionedBy(String... columns) {
    for (String c : columns) {
      if (c == null || c.isBlank()) {
        throw new IllegalArgumentException("partitionBy: a column name is empty");
      }
    }
    return new StageSpec(fn, arity, allowNondeterministic, inputKey, refresh, List.of(columns), compression, expiresAfter);
  }

  public StageSpec compressedWith(String codec) {
    Objects.requireNonNull(codec, "compression");
    return new StageSpec(fn, arity, allowNondeterministic, inputKey, refresh, partitionBy, codec, expiresAfter);
  }

  public StageSpec expiringAfter(Duration age) {
    if (age == null || age.isNegative() || age.isZero()) {
      throw new IllegalArgumentException("expiresAfter must be a positive duration, got " + age);
    }
    return new StageSpec(fn, arity, allowNondeterministic, inputKey, refresh, partitionBy, compression, age);
  }

  /** The stage function's fingerprint, now. */
  public FunctionFingerprint fingerprint() {
    return FunctionFingerprint.of(fn);
  }
}
