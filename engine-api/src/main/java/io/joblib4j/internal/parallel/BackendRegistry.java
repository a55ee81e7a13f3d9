package io.joblib4j.internal.parallel;

import io.joblib4j.internal.ProviderRegistry;
import io.joblib4j.spi.BackendProvider;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The backend providers, by name: registered by hand or listed in {@code META-INF/services}. */
public final class BackendRegistry {
  private static final ProviderRegistry<BackendProvider> PROVIDERS = new ProviderRegistry<>(
      BackendProvider.class, "backend name", Pattern.compile("[a-z][a-z0-9-]{0,63}"),
      "use lowercase letters, digits and dashes, starting with a letter (e.g. \"threads\", \"spark\")",
      p -> List.of(p.name()));

  private BackendRegistry() {}

  /** Rejects names users could not write or that would clash ({@code "Spark "}, {@code ""}). */
  public static void validateName(String name) {
    PROVIDERS.validateKey(name);
  }

  /** Registers {@code provider} under {@code name}; fails if the name is taken. */
  public static void register(String name, BackendProvider provider) {
    PROVIDERS.register(name, provider);
  }

  /** Removes the provider of {@code name}, registered or discovered. */
  public static boolean unregister(String name) {
    return PROVIDERS.unregister(name);
  }

  /** Every backend name that can be used from the current thread. */
  public static Set<String> names() {
    return PROVIDERS.keys();
  }

  /** The provider of {@code name}, or an error listing the names that exist. */
  public static BackendProvider provider(String name) {
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
        + String.join(", ", names()) + hint);
  }
}
