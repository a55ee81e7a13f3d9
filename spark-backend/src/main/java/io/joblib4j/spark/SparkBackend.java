package io.joblib4j.spark;

import io.joblib4j.spark.internal.SparkEngine;
import io.joblib4j.spark.internal.SparkSessions;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.CallSpec;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apiguardian.api.API;

/**
 * The {@code spark} backend: the batches of a {@code Parallel} call run on Spark executors.
 *
 * <pre>{@code
 * // the active SparkSession (spark-submit, spark-shell, a notebook):
 * try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).build()) {
 *   List<Double> scores = p.map(Scorer::score, folds);
 * }
 * // or a session of your own:
 * try (SparkBackend spark = new SparkBackend(session);
 *      Parallel p = Parallel.builder().backend(spark).nJobs(-1).build()) { ... }
 * }</pre>
 *
 * <p>{@code nJobs(-1)} is the number of task slots Spark has now (executor cores / {@code
 * spark.task.cpus}); with dynamic allocation and no executor yet, the call starts anyway and Spark
 * adds executors. A task's exception comes back as itself, with the executor's stack trace, and
 * cancels the call's other tasks within about a second; Spark retries only infrastructure
 * failures, such as a lost executor. Arguments larger than {@code maxNbytes} (1 MiB) are shipped
 * once per call as a broadcast. The {@code initializer} runs once per executor JVM. Spark Connect
 * sessions are refused: they have no SparkContext to run tasks on.
 *
 * <p>Executors connect back to the driver for their batches, at {@code spark.driver.host} on a
 * free port unless {@code spark.joblib4j.driver.host} / {@code spark.joblib4j.driver.port} say
 * otherwise; when they cannot, batches run as Spark jobs ({@code spark.joblib4j.channel}). Closing
 * this backend cancels running calls; Spark keeps running.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class SparkBackend implements Backend {
  private final SparkEngine engine;

  /**
   * A backend on {@code session}'s SparkContext.
   *
   * @param session a running session
   */
  public SparkBackend(SparkSession session) {
    this(SparkSessions.contextOf(Objects.requireNonNull(session, "session")), Map.of());
  }

  /**
   * A backend on {@code context}.
   *
   * @param context a running context
   */
  public SparkBackend(JavaSparkContext context) {
    this(Objects.requireNonNull(context, "context").sc(), Map.of());
  }

  /**
   * A backend on {@code context}.
   *
   * @param context a running context
   */
  public SparkBackend(SparkContext context) {
    this(context, Map.of());
  }

  /**
   * A backend on {@code context} with options ({@code channel}, {@code driver.host}, {@code
   * driver.port}, ... {@code maxResultSize}: the names of the {@code spark.joblib4j.*} settings
   * without the prefix) over those settings.
   *
   * @param context a running context
   * @param options backend options, by name
   */
  public SparkBackend(SparkContext context, Map<String, Object> options) {
    this.engine = new SparkEngine(Objects.requireNonNull(context, "context"), Map.copyOf(options));
  }

  /**
   * A backend on the active SparkSession, or the running SparkContext.
   *
   * @return the backend
   */
  public static SparkBackend active() {
    return new SparkBackend(SparkEngine.currentContext(), Map.of());
  }

  /**
   * The SparkContext this backend runs on.
   *
   * @return the context
   */
  public SparkContext sparkContext() {
    return engine.sparkContext();
  }

  @Override
  public String name() {
    return "spark";
  }

  @Override
  public BackendTraits traits() {
    return engine.traits();
  }

  @Override
  public int capacity() {
    return engine.capacity();
  }

  @Override
  public int effectiveNJobs(int nJobs) {
    return engine.effectiveNJobs(nJobs);
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    return engine.startCall(spec);
  }

  @Override
  public void close() {
    engine.close();
  }

  @Override
  public String toString() {
    return "SparkBackend(" + engine.sparkContext().master() + ")";
  }
}
