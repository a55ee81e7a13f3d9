package io.joblib4j;

import java.io.Serializable;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Decides whether a cached result may still be used, from its metadata (joblib's {@code
 * cache_validation_callback}). A result found invalid is recomputed, and the invalid entry is
 * replaced.
 *
 * <pre>{@code
 * Fn1<String, Report> daily = memory.cache(Reports::build).expiresAfter(Duration.ofDays(1));
 * Fn1<String, Report> fast = memory.cache(Reports::build).validation(m -> m.duration().toSeconds() > 1);
 * }</pre>
 */
@FunctionalInterface
@API(status = API.Status.STABLE, since = "0.1")
public interface CacheValidation extends Serializable {

  /**
   * Whether the entry described by {@code metadata} may be used; {@code clock} tells the time.
   *
   * @param metadata the entry's metadata
   * @param clock the Memory's clock
   * @return whether the entry may be used
   */
  boolean isValid(CacheMetadata metadata, Clock clock);

  /**
   * Valid while younger than {@code age} (joblib's {@code expires_after}).
   *
   * @param age the age at which entries are computed again
   * @return the validation
   */
  static CacheValidation expiresAfter(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative()) {
      throw new IllegalArgumentException("expiresAfter needs a positive duration, got " + age);
    }
    return (m, clock) -> Duration.between(m.computedAt(), clock.instant()).compareTo(age) < 0;
  }
}
