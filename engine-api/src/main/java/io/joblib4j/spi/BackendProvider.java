package io.joblib4j.spi;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * Creates a {@link Backend} by name. Providers are listed in {@code
 * META-INF/services/io.joblib4j.spi.BackendProvider} and found through the thread context class
 * loader (so a provider in a Spark or notebook user jar is found), or registered by hand with
 * {@link Backends#register}.
 *
 * <p>Names are lowercase letters, digits and dashes, starting with a letter ({@code threads},
 * {@code spark}, {@code my-cluster}).
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public interface BackendProvider {

  /**
   * The name users write in {@code backend("...")}.
   *
   * @return the name
   */
  String name();

  /**
   * A new backend. {@code options} are the backend options of the active configuration ({@code
   * ParallelConfig.backend(name).option(key, value)}); a provider rejects keys it does not know with
   * an {@link IllegalArgumentException} that lists the ones it does.
   *
   * @param options the backend options, by name
   * @return the backend, which its caller closes
   */
  Backend create(Map<String, Object> options);

  /**
   * A one-line description shown when a backend name is not found.
   *
   * @return the description
   */
  default String description() {
    return getClass().getName();
  }
}
