package io.joblib4j.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The store registry: opens a {@link Store} for a location by its URI scheme. A plain path or a
 * {@code file:} URI is the local store, joblib4j's own provider of the {@code file} scheme, listed
 * in {@code META-INF/services/io.joblib4j.spi.StoreProvider} as any other; {@code hdfs:}, {@code
 * s3a:}, ... come from providers such as joblib4j-hdfs-store. Providers are found through the thread
 * context class loader and joblib4j's own, or registered by hand.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class Stores {
  private static final ProviderRegistry<StoreProvider> PROVIDERS = new ProviderRegistry<>(
      StoreProvider.class, "store scheme", ProviderRegistry.lowercaseKey(32, "+.-"),
      "use a lowercase URI scheme such as \"hdfs\" or \"s3a\"", p -> new ArrayList<>(p.schemes()), Map.of());

  private Stores() {}

  /**
   * Registers {@code provider} for each of its schemes.
   *
   * @param provider the provider
   * @throws IllegalArgumentException if a scheme is invalid or already served
   */
  public static void register(StoreProvider provider) {
    for (String scheme : provider.schemes()) {
      PROVIDERS.register(scheme, provider);
    }
  }

  /**
   * Removes the provider of {@code scheme}; true if there was one.
   *
   * @param scheme a URI scheme
   * @return whether a provider was removed
   */
  public static boolean unregister(String scheme) {
    return PROVIDERS.unregister(scheme);
  }

  /**
   * The schemes with a provider, {@code file} among them.
   *
   * @return the schemes, sorted
   */
  public static Set<String> schemes() {
    return PROVIDERS.keys();
  }

  /**
   * Opens the store at {@code location}: a local path ({@code /data/cache}, {@code cache}, {@code
   * C:\cache}) or a URI ({@code file:/data/cache}, {@code hdfs://nn/cache}).
   *
   * @param location a path or a URI
   * @param options store options, provider-specific; unknown ones are refused
   * @return the open store, which the caller closes
   */
  public static Store open(String location, Map<String, Object> options) {
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException("store location is empty");
    }
    int colon = location.indexOf(':');
    boolean looksLikeUri = colon > 1 && location.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*");
    if (!looksLikeUri) {
      return openLocal(Path.of(location), options);
    }
    return open(URI.create(location), options);
  }

  /**
   * Opens the store at {@code location} by its scheme.
   *
   * @param location a URI
   * @param options store options, provider-specific; unknown ones are refused
   * @return the open store, which the caller closes
   */
  public static Store open(URI location, Map<String, Object> options) {
    String scheme = location.getScheme() == null ? "file" : location.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("file")) {
      return openLocal(Path.of(location), options);
    }
    StoreProvider provider = PROVIDERS.find(scheme);
    if (provider == null) {
      String hint = Set.of("hdfs", "s3a", "abfs", "abfss", "gs", "viewfs", "webhdfs", "wasb").contains(scheme)
          ? " — Hadoop FileSystem stores are in io.joblib4j:joblib4j-hdfs-store; put it and the matching"
              + " Hadoop client on the classpath"
          : "";
      throw new IllegalArgumentException("no store for \"" + scheme + ":\" locations (" + location
          + "); available: file" + (schemes().isEmpty() ? "" : ", " + String.join(", ", schemes())) + hint);
    }
    try {
      return provider.open(location, options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the store at " + location + ": " + e.getMessage(), e);
    }
  }

  /**
   * Opens the local store (the provider of {@code file:}) at {@code root}.
   *
   * @param root the folder, created if needed
   * @param options none: the local store takes no options
   * @return the open store
   */
  public static Store openLocal(Path root, Map<String, Object> options) {
    StoreProvider local = PROVIDERS.find("file");
    if (local == null) {
      throw new IllegalStateException("no store for \"file:\" locations: joblib4j's local store was"
          + " unregistered, or META-INF/services/io.joblib4j.spi.StoreProvider of joblib4j-engine-api is"
          + " missing from the class path (a shaded jar that drops service files?)");
    }
    try {
      return local.open(root.toUri(), options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the cache folder " + root + ": " + e.getMessage(), e);
    }
  }
}
