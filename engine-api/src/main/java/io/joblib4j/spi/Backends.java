package io.joblib4j.spi;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The backend registry. Providers listed in {@code META-INF/services/io.joblib4j.spi.BackendProvider}
 * are found through the thread context class loader and joblib4j's own (the built-in {@code
 * sequential}, {@code threads} and {@code processes} backends are listed so too, and found by
 * name without reading the services files, which opens every jar of the class path; a jar that
 * claims one of their names is reported); others are registered by hand:
 *
 * <pre>{@code
 * Backends.register("my-cluster", new MyClusterBackendProvider());
 * Parallel.builder().backend("my-cluster").nJobs(-1).build();
 * }</pre>
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class Backends {
  private static final ProviderRegistry<BackendProvider> PROVIDERS = new ProviderRegistry<>(
      BackendProvider.class, "backend name", ProviderRegistry.lowercaseKey(64, "-"),
      "use lowercase letters, digits and dashes, starting with a letter (e.g. \"threads\", \"spark\")",
      p -> List.of(p.name()), Map.of(
          "sequential", "io.joblib4j.internal.parallel.SequentialBackend$Provider",
          "threads", "io.joblib4j.internal.threads.ThreadsBackend$Provider",
          "processes", "io.joblib4j.internal.processes.ProcessesBackend$Provider"));

  private Backends() {}

  /**
   * Registers {@code provider} under {@code name}.
   *
   * @param name the name {@code backend(name)} selects it by
   * @param provider creates the backend
   * @throws IllegalArgumentException if the name is not lowercase letters, digits and dashes, or
   *     another provider already has it
   */
  public static void register(String name, BackendProvider provider) {
    PROVIDERS.register(name, provider);
  }

  /**
   * Registers {@code provider} under its own {@link BackendProvider#name()}.
   *
   * @param provider creates the backend
   * @throws IllegalArgumentException as {@link #register(String, BackendProvider)}
   */
  public static void register(BackendProvider provider) {
    PROVIDERS.register(provider.name(), provider);
  }

  /**
   * Removes the backend {@code name}, whether registered by hand or discovered.
   *
   * @param name a backend name
   * @return whether there was such a backend
   */
  public static boolean unregister(String name) {
    return PROVIDERS.unregister(name);
  }

  /**
   * The names of every backend usable from the current thread.
   *
   * @return the names, sorted
   */
  public static Set<String> available() {
    return PROVIDERS.keys();
  }

  /**
   * Checks that {@code name} could name a backend, before any is looked up.
   *
   * @param name a backend name
   * @throws IllegalArgumentException if it is not lowercase letters, digits and dashes starting with
   *     a letter ({@code "Spark "}, {@code ""})
   */
  public static void validateName(String name) {
    PROVIDERS.validateKey(name);
  }

  /**
   * A new backend {@code name} with {@code options}.
   *
   * @param name a backend name
   * @param options the backend's options ({@code Parallel.Builder.option})
   * @return the new backend, which the caller closes
   * @throws IllegalArgumentException if no backend has that name; the message lists those that do
   */
  public static Backend create(String name, Map<String, Object> options) {
    return provider(name).create(options);
  }

  private static BackendProvider provider(String name) {
    BackendProvider p = PROVIDERS.find(name);
    if (p != null) {
      return p;
    }
    String hint = switch (name) {
      case "spark" -> " — the spark backend is in io.joblib4j:joblib4j-spark-backend_2.13; put it on the classpath";
      case "loky", "multiprocessing" -> " — joblib's process backends are called \"processes\" here";
      case "threading" -> " — joblib's \"threading\" is called \"threads\" here";
      default -> "";
    };
    throw new IllegalArgumentException("unknown backend \"" + name + "\"; available: "
        + String.join(", ", available()) + hint);
  }
}
