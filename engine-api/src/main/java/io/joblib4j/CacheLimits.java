package io.joblib4j;

import io.joblib4j.spi.support.ByteSizes;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * How much a cache may hold: at most {@code bytes} bytes, at most {@code items} entries, no entry
 * unused for longer than {@code age}; null means no limit of that kind. {@link Memory.Builder} keeps
 * a Memory within them after every store; {@link Memory#prune} applies them once.
 *
 * <pre>{@code
 * memory.prune(CacheLimits.none().bytes("10G").age(Duration.ofDays(30)), true);   // what would go
 * }</pre>
 *
 * @param bytes the most bytes to keep, or null
 * @param items the most entries to keep, or null
 * @param age the longest an entry may stay unused (since its last access), or null
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CacheLimits(Long bytes, Long items, Duration age) {

  /**
   * Checks the limits.
   *
   * @param bytes the most bytes to keep, or null
   * @param items the most entries to keep, or null
   * @param age the longest an entry may stay unused, or null
   * @throws IllegalArgumentException if a limit is negative
   */
  public CacheLimits {
    if (bytes != null && bytes < 0 || items != null && items < 0) {
      throw new IllegalArgumentException("cache limits must not be negative, got bytes " + bytes + ", items " + items);
    }
    if (age != null && age.isNegative()) {
      throw new IllegalArgumentException("the age limit must not be negative, got " + age);
    }
  }

  /**
   * No limit at all; add some with {@link #bytes}, {@link #items}, {@link #age}.
   *
   * @return limits that keep everything
   */
  public static CacheLimits none() {
    return new CacheLimits(null, null, null);
  }

  /**
   * These limits with at most {@code size} bytes.
   *
   * @param size {@code "50G"}, {@code "500M"}, {@code "1.5T"}, or a number of bytes
   * @return the new limits
   * @throws IllegalArgumentException if {@code size} is not a size
   */
  public CacheLimits bytes(String size) {
    return bytes(ByteSizes.parse(size));
  }

  /**
   * These limits with at most {@code bytes} bytes.
   *
   * @param bytes the most bytes to keep
   * @return the new limits
   */
  public CacheLimits bytes(long bytes) {
    return new CacheLimits(bytes, items, age);
  }

  /**
   * These limits with at most {@code items} entries.
   *
   * @param items the most entries to keep
   * @return the new limits
   */
  public CacheLimits items(long items) {
    return new CacheLimits(bytes, items, age);
  }

  /**
   * These limits with no entry unused for longer than {@code age}.
   *
   * @param age the longest an entry may stay unused
   * @return the new limits
   */
  public CacheLimits age(Duration age) {
    return new CacheLimits(bytes, items, java.util.Objects.requireNonNull(age, "age"));
  }

  /**
   * Whether any limit is set.
   *
   * @return false for {@link #none()}
   */
  public boolean any() {
    return bytes != null || items != null || age != null;
  }
}
