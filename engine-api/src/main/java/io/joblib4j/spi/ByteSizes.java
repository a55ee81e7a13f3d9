package io.joblib4j.spi;

import org.apiguardian.api.API;

/**
 * Moved to {@link io.joblib4j.spi.support.ByteSizes}, with the other helpers implementers call;
 * this forwarder keeps code written against the old name compiling for one release.
 *
 * @deprecated use {@link io.joblib4j.spi.support.ByteSizes}
 */
@Deprecated(since = "0.1", forRemoval = true)
@API(status = API.Status.DEPRECATED, since = "0.1")
public final class ByteSizes {
  private ByteSizes() {}

  /**
   * The number of bytes {@code text} denotes.
   *
   * @param text a size such as {@code "64K"}
   * @return the size in bytes
   * @deprecated use {@link io.joblib4j.spi.support.ByteSizes#parse(String)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static long parse(String text) {
    return io.joblib4j.spi.support.ByteSizes.parse(text);
  }
}
