package io.joblib4j.spark.internal;

import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendProvider;
import java.util.Map;

/**
 * Registers {@code backend("spark")} through {@code META-INF/services}: the backend runs on the
 * active SparkSession's context (or the running SparkContext), created when the call needs it; on
 * Spark Connect, on the Connect path ({@link ConnectDispatch}).
 */
public final class SparkBackendProvider implements BackendProvider {
  @Override
  public String name() {
    return "spark";
  }

  @Override
  public Backend create(Map<String, Object> options) {
    if (ConnectDispatch.connectInUse()) { // the Connect path, in joblib4j-spark-connect
      return ConnectDispatch.backendOn(ConnectDispatch.activeSession(), options);
    }
    return new SparkBackend(SparkEngine.currentContext(), options);
  }

  @Override
  public String description() {
    return "Spark executors of the active SparkSession (joblib4j-spark-backend)";
  }
}
