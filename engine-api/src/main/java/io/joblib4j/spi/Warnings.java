package io.joblib4j.spi;

import java.util.function.BiConsumer;
import org.apiguardian.api.API;

/**
 * Moved to {@link io.joblib4j.spi.support.Warnings}, with the other helpers implementers call;
 * this forwarder keeps code written against the old name compiling for one release.
 *
 * @deprecated use {@link io.joblib4j.spi.support.Warnings}
 */
@Deprecated(since = "0.1", forRemoval = true)
@API(status = API.Status.DEPRECATED, since = "0.1")
public final class Warnings {
  private Warnings() {}

  /**
   * Warns the user.
   *
   * @param source the class the warning is about, whose logger takes it
   * @param message what the user should know
   * @deprecated use {@link io.joblib4j.spi.support.Warnings#warn(Class, String)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static void warn(Class<?> source, String message) {
    io.joblib4j.spi.support.Warnings.warn(source, message);
  }

  /**
   * Adds a hook told every warning.
   *
   * @param hook told the source and the message of each warning
   * @return an action that removes the hook
   * @deprecated use {@link io.joblib4j.spi.support.Warnings#addHook(BiConsumer)}
   */
  @Deprecated(since = "0.1", forRemoval = true)
  public static Runnable addHook(BiConsumer<Class<?>, String> hook) {
    return io.joblib4j.spi.support.Warnings.addHook(hook);
  }
}
