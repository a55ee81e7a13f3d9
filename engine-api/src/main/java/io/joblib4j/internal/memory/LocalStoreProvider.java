package io.joblib4j.internal.memory;

import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The local store as a provider of the {@code file} scheme, listed in engine-api's {@code
 * META-INF/services/io.joblib4j.spi.StoreProvider} as a third party's store would be: {@code
 * Stores} opens plain paths and {@code file:} URIs through it.
 */
public final class LocalStoreProvider implements StoreProvider {

  @Override
  public Set<String> schemes() {
    return Set.of("file");
  }

  @Override
  public Store open(URI location, Map<String, Object> options) throws IOException {
    if (!options.isEmpty()) {
      throw new IllegalArgumentException("the local store takes no options, got " + options.keySet());
    }
    return new LocalStore(Path.of(location));
  }
}
