package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * Moved to {@link io.joblib4j.spi.support.StorePaths}, with the other helpers implementers call;
 * this forwarder keeps code written against the old name compiling for one release.
 *
 * @deprecated use {@link io.joblib4j.spi.support.StorePaths}
 */
@Deprecated(since = "0.1", forRemoval = true)
@API(status = API.Status.DEPRECATED, since = "0.1")
public final class StorePaths {
  private StorePaths() {}

  /**
   * Returns {@code path} if it follows the store path rules, else throws.
   *
   * @param path a relative store path
   * @return {@code path}
   * @deprecated use {@link io.joblib4j.spi.support.StorePaths#check(String)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static String check(String path) {
    return io.joblib4j.spi.support.StorePaths.check(path);
  }

  /**
   * Returns {@code segment} if it is one valid path segment, else throws.
   *
   * @param segment one segment of a store path
   * @return {@code segment}
   * @deprecated use {@link io.joblib4j.spi.support.StorePaths#checkSegment(String)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static String checkSegment(String segment) {
    return io.joblib4j.spi.support.StorePaths.checkSegment(segment);
  }

  /**
   * The non-empty parts joined with {@code /}.
   *
   * @param parts path parts, empty ones skipped
   * @return the joined path
   * @deprecated use {@link io.joblib4j.spi.support.StorePaths#join(String...)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static String join(String... parts) {
    return io.joblib4j.spi.support.StorePaths.join(parts);
  }
}
