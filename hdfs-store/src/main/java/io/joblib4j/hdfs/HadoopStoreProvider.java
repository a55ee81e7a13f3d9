package io.joblib4j.hdfs;

import io.joblib4j.hdfs.internal.Configurations;
import io.joblib4j.hdfs.internal.ConnectClientSettings;
import io.joblib4j.spi.Store;
import io.joblib4j.spi.StoreProvider;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The {@link StoreProvider} for Hadoop schemes ({@link HadoopStores#SCHEMES}), listed in {@code
 * META-INF/services/io.joblib4j.spi.StoreProvider}: stores open with the Hadoop configuration in
 * scope and the options given (see {@link HadoopStoreOptions}). In a Spark Connect client, which
 * has no SparkContext to take the cluster's Hadoop settings from, a store opens only with settings
 * of its own ({@code hadoop.*} options or a {@code core-site.xml} on the class path) and otherwise
 * fails at once, saying so.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class HadoopStoreProvider implements StoreProvider {
  private final Set<String> schemes;

  /** The provider ServiceLoader instantiates, for {@link HadoopStores#SCHEMES}. */
  public HadoopStoreProvider() {
    this(HadoopStores.SCHEMES);
  }

  HadoopStoreProvider(Set<String> schemes) {
    this.schemes = Set.copyOf(schemes);
  }

  @Override
  public Set<String> schemes() {
    return schemes;
  }

  @Override
  public Store open(URI location, Map<String, Object> options) throws IOException {
    ConnectClientSettings.require(location, options);
    return HadoopStores.open(location, Configurations.inScope(), options);
  }
}
