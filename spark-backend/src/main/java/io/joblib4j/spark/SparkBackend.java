package io.joblib4j.spark;

import io.joblib4j.spark.internal.ConnectDispatch;
import io.joblib4j.spark.internal.SparkEngine;
import io.joblib4j.spark.internal.SparkSessions;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.Batching;
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
 * once per call as a broadcast. The {@code initializer} runs once per executor JVM.
 *
 * <p>On a Spark Connect session (Databricks shared or serverless compute, {@code
 * spark.api.mode=connect}, an {@code sc://} server) there is no SparkContext: with {@code
 * joblib4j-spark-connect} on the class path, the backend runs the batches through the Dataset API
 * Connect offers instead (see that module and the README's "Spark Connect: what differs"); the
 * session is recognized by its class name, so this class never loads the Connect client.
 *
 * <p>Executors connect back to the driver for their batches, at {@code spark.driver.host} on a
 * free port unless {@code spark.joblib4j.driver.host} / {@code spark.joblib4j.driver.port} say
 * otherwise; when they cannot, batches run as Spark jobs ({@code spark.joblib4j.channel}). Closing
 * this backend cancels running calls; Spark keeps running.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class SparkBackend implements Backend {
  /** The classic path, or null on Spark Connect. */
  private final SparkEngine engine;
  /** The Connect path (joblib4j-spark-connect's backend), or null on the classic path. */
  private final Backend connect;

  /**
   * A backend on {@code session}'s SparkContext, or, for a Spark Connect session, on the Connect
   * path of {@code joblib4j-spark-connect}.
   *
   * @param session a running session
   * @throws UnsupportedOperationException for a Spark Connect session when joblib4j-spark-connect
   *     is not on the class path, saying what to add
   */
  public SparkBackend(SparkSession session) {
    this(Objects.requireNonNull(session, "session"), Map.of());
  }

  /**
   * A backend on {@code session} with options (those of the classic path, see {@link
   * #SparkBackend(SparkContext, Map)}; on Spark Connect those of {@code SparkConnectBackend}).
   *
   * @param session a running session
   * @param options backend options, by name
   * @throws UnsupportedOperationException for a Spark Connect session when joblib4j-spark-connect
   *     is not on the class path, saying what to add
   */
  public SparkBackend(SparkSession session, Map<String, Object> options) {
    Objects.requireNonNull(session, "session");
    if (ConnectDispatch.isConnect(session)) {
      this.engine = null;
      this.connect = ConnectDispatch.backendOn(session, options);
    } else {
      this.engine = new SparkEngine(SparkSessions.contextOf(session), Map.copyOf(options));
      this.connect = null;
    }
  }

  /** The Connect path, built by {@link ConnectDispatch}. */
  private SparkBackend(Backend connect) {
    this.engine = null;
    this.connect = connect;
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
    this.connect = null;
  }

  /**
   * A backend on the active SparkSession, or the running SparkContext; on Spark Connect (the active
   * session is one, or {@code SPARK_REMOTE}, {@code spark.remote} or {@code spark.api.mode=connect}
   * say so, or this JVM has the Connect client and no Spark) on the Connect path.
   *
   * @return the backend
   */
  public static SparkBackend active() {
    if (ConnectDispatch.connectInUse()) {
      return new SparkBackend(ConnectDispatch.backendOn(ConnectDispatch.activeSession(), Map.of()));
    }
    return new SparkBackend(SparkEngine.currentContext(), Map.of());
  }

  /**
   * The SparkContext this backend runs on.
   *
   * @return the context
   * @throws UnsupportedOperationException on Spark Connect, which has none
   */
  public SparkContext sparkContext() {
    if (engine == null) {
      throw ConnectDispatch.needsSparkContext("SparkBackend.sparkContext()");
    }
    return engine.sparkContext();
  }

  @Override
  public String name() {
    return "spark";
  }

  @Override
  public BackendTraits traits() {
    return connect != null ? connect.traits() : engine.traits();
  }

  @Override
  public int capacity() {
    return connect != null ? connect.capacity() : engine.capacity();
  }

  @Override
  public int effectiveNJobs(int nJobs) {
    return connect != null ? connect.effectiveNJobs(nJobs) : engine.effectiveNJobs(nJobs);
  }

  /**
   * On Spark Connect, the Connect path's hint (one batch per slot when the input's size is known:
   * each batch is a Connect operation); on the classic path, joblib's adaptive batching.
   *
   * @return the batching hint
   */
  @Override
  public Batching batching() {
    return connect != null ? connect.batching() : Batching.ADAPTIVE;
  }

  @Override
  public BackendCall startCall(CallSpec spec) {
    return connect != null ? connect.startCall(spec) : engine.startCall(spec);
  }

  @Override
  public void close() {
    if (connect != null) {
      connect.close();
    } else {
      engine.close();
    }
  }

  @Override
  public String toString() {
    return connect != null ? "SparkBackend(Spark Connect: " + connect + ")"
        : "SparkBackend(" + engine.sparkContext().master() + ")";
  }
}
