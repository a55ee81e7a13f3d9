package io.joblib4j.spark.internal;

import io.joblib4j.spark.SparkBackend;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendProvider;
import java.util.Map;

/**
 * Registers {@code backend("spark")} through {@code META-INF/services}: the backend runs on the
 * active SparkSession's context (or the running SparkContext), created when the call needs it.
 */
public final class SparkBackendProvider implements BackendProvider {
  @Override
  public String name() {
    return "spark";
  }

  @Override
  public Backend create(Map<String, Object> options) {
    return new SparkBackend(SparkEngine.currentContext(), options);
  }

  @Override
  public String description() {
    return "Spark executors of the active SparkSession (joblib4j-spark-backend)";
  }
}
