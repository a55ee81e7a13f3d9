package io.joblib4j.spark.connect;

import io.joblib4j.spark.connect.internal.ConnectEngine;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.Batching;
import io.joblib4j.spi.CallSpec;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.sql.SparkSession;
import org.apiguardian.api.API;

/**
 * The {@code spark} backend on a Spark Connect session: each batch of a {@code Parallel} call runs
 * on the server's executors as one row of a typed {@code mapPartitions}, and its results come back
 * through the Connect result stream. The client needs only the Spark Connect client; the executors
 * need joblib4j and the tasks' classes, which this backend adds to the session as artifacts:
 * joblib4j's jars, and the jars and class folders of every class it sends (a REPL's output folder
 * through the client's class finder); others with the {@code jars} option. Task arguments over
 * {@code maxNbytes} cross once per session, as a jar of their own.
 *
 * <pre>{@code
 * SparkSession spark = SparkSession.builder().remote("sc://host:15002").getOrCreate();
 * try (Parallel p = Parallel.builder().backend("spark").nJobs(-1).build()) {   // or new SparkBackend(spark)
 *   List<Double> scores = p.map(Scorer::score, folds);
 * }
 * }</pre>
 *
 * <p>Backend options ({@code ParallelConfig.backend("spark").option(...)} or the constructor's map):
 * {@code jars} (more jars or class folders for the executors, comma-separated, added once per session),
 * {@code slots} (what {@code nJobs(-1)} means when the client should not ask the server), {@code
 * maxResultSize} (bytes one batch's results may take; 128 MiB less room for the frames), {@code
 * shareBelow} (a {@code Duration}: batches cut together share one operation when their function's
 * last operation took less; 1 s by default, zero never). See docs/spark-connect.md.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SparkConnectBackend implements Backend {
  private final ConnectEngine engine;

  /**
   * A backend on {@code session}, which must be a Spark Connect session.
   *
   * @param session a Spark Connect session
   * @throws IllegalArgumentException if {@code session} is a classic session (use {@code
   *     SparkBackend})
   */
  public SparkConnectBackend(SparkSession session) {
    this(session, Map.of());
  }

  /**
   * A backend on {@code session} with options ({@code jars}, {@code slots}, {@code maxResultSize},
   * {@code shareBelow}).
   *
   * @param session a Spark Connect session
   * @param options backend options, by name
   * @throws IllegalArgumentException if {@code session} is a classic session, or for an unknown
   *     option or a bad value, naming it
   */
  public SparkConnectBackend(SparkSession session, Map<String, Object> options) {
    this.engine = new ConnectEngine(Objects.requireNonNull(session, "session"), Map.copyOf(options));
  }

  /**
   * A backend on the active Spark Connect session.
   *
   * @return the backend
   * @throws IllegalStateException if this thread has no active or default Connect session
   */
  public static SparkConnectBackend active() {
    return new SparkConnectBackend(ConnectEngine.activeSession(), Map.of());
  }

  /**
   * The session this backend runs on.
   *
   * @return the Spark Connect session
   */
  public SparkSession session() {
    return engine.session();
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

  /**
   * One batch per slot, all sent at once, when the input's size is known and the user sets neither
   * {@code batchSize} nor {@code preDispatch}: each batch is a Connect operation, whose overhead
   * adaptive batching cannot amortize.
   *
   * @return {@link Batching#ONE_PER_WORKER}
   */
  @Override
  public Batching batching() {
    return engine.batching();
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
    return "SparkConnectBackend(" + engine.describe() + ")";
  }
}
