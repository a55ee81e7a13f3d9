package io.joblib4j.spi;

import io.joblib4j.internal.parallel.BackendRegistry;
import java.util.Map;
import java.util.Set;

/**
 * The backend registry. Providers listed in {@code META-INF/services/io.joblib4j.spi.BackendProvider}
 * are found through the thread context class loader; others are registered by hand:
 *
 * <pre>{@code
 * Backends.register("my-cluster", new MyClusterBackendProvider());
 * Parallel.builder().backend("my-cluster").nJobs(-1).build();
 * }</pre>
 */
public final class Backends {
  private Backends() {}

  /**
   * Registers {@code provider} under {@code name}.
   *
   * @throws IllegalArgumentException if the name is not lowercase letters, digits and dashes, or
   *     another provider already has it
   */
  public static void register(String name, BackendProvider provider) {
    BackendRegistry.register(name, provider);
  }

  /** Registers {@code provider} under its own {@link BackendProvider#name()}. */
  public static void register(BackendProvider provider) {
    BackendRegistry.register(provider.name(), provider);
  }

  /** Removes the backend {@code name}, whether registered by hand or discovered; true if it existed. */
  public static boolean unregister(String name) {
    return BackendRegistry.unregister(name);
  }

  /** The names of every backend usable from the current thread. */
  public static Set<String> available() {
    return BackendRegistry.names();
  }

  /**
   * A new backend {@code name} with {@code options}.
   *
   * @throws IllegalArgumentException if no backend has that name; the message lists those that do
   */
  public static Backend create(String name, Map<String, Object> options) {
    return BackendRegistry.provider(name).create(options);
  }
}
