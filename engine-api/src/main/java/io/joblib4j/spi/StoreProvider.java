package io.joblib4j.spi;

import java.net.URI;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Opens {@link Store}s for URI schemes. Providers are listed in {@code
 * META-INF/services/io.joblib4j.spi.StoreProvider} and found through the thread context class
 * loader, or registered with {@link Stores#register}. Plain paths and {@code file:} URIs are the
 * built-in local store.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface StoreProvider {

  /**
   * The lowercase URI schemes served, e.g. {@code hdfs}, {@code s3a}.
   *
   * @return the schemes
   */
  Set<String> schemes();

  /**
   * Opens the store rooted at {@code location}, creating the root if needed.
   *
   * @param options store options (provider-specific); unknown keys are rejected with an {@link
   *     IllegalArgumentException} listing the known ones
   * @param location the store's root
   * @return the open store, which its caller closes
   * @throws java.io.IOException if the store cannot be reached or its root created
   */
  Store open(URI location, Map<String, Object> options) throws java.io.IOException;
}
