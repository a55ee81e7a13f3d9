package io.joblib4j.spark.connect.internal;

import io.joblib4j.spark.connect.SparkConnectBackend;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendProvider;
import java.util.HashMap;
import java.util.Map;

/**
 * Registers {@code backend("spark-connect")} through {@code META-INF/services}; spark-backend's
 * {@code backend("spark")} and {@code new SparkBackend(session)} come here on a Spark Connect
 * session, passing it as the option {@code session} (so that neither module links the other).
 */
public final class ConnectBackendProvider implements BackendProvider {
  /** The option that carries the session, set by spark-backend's dispatch. */
  public static final String SESSION = "session";

  @Override
  public String name() {
    return "spark-connect";
  }

  @Override
  public Backend create(Map<String, Object> options) {
    ConnectClientVersion.requireSupported();
    Map<String, Object> rest = new HashMap<>(options);
    Object session = rest.remove(SESSION);
    if (session == null) {
      session = ConnectEngine.activeSession();
    }
    if (!(session instanceof org.apache.spark.sql.SparkSession s)) {
      throw new IllegalArgumentException("the option " + SESSION + " must be a Spark Connect SparkSession, not "
          + session.getClass().getName());
    }
    return new SparkConnectBackend(s, rest);
  }

  @Override
  public String description() {
    return "Spark executors behind the active Spark Connect session (joblib4j-spark-connect)";
  }
}
