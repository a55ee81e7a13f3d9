package io.joblib4j;

import org.apiguardian.api.API;

/**
 * The digest behind {@link Joblib#hash(Object, HashAlgorithm)}.
 *
 * <p>Both give hex strings that are stable across JVMs, runs and machines for the same value; they
 * give different strings from each other.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum HashAlgorithm {
  /**
   * xxHash3, 128 bits (32 hex digits). The default: fast (several GB/s on arrays) and with
   * collisions as unlikely as MD5's for non-adversarial data. Not a cryptographic hash.
   */
  XXH3_128,
  /**
   * SHA-256 (64 hex digits), for keys that must resist deliberately constructed collisions, e.g. a
   * cache shared with parties you do not trust. Much slower than {@link #XXH3_128}.
   */
  SHA_256
}
