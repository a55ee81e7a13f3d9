package io.joblib4j.spark.stages;

import io.joblib4j.MissExplanation;
import io.joblib4j.fn.Fn3;
import io.joblib4j.spark.stages.internal.StageRunner;
import io.joblib4j.spark.stages.internal.StageSpec;
import java.io.Serial;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apiguardian.api.API;

/**
 * A cached stage of 3 arguments, made by {@link StageCache#cache(Fn3)}: {@link #apply} reads the
 * stored result when there is one for these arguments and computes, stores and reads it otherwise.
 * Either way the result is the stored data, read back as a {@code Dataset<Row>}.
 *
 * <p>The option methods return a new stage with the option set and leave this one as it is.
 *
 * @param <A> the type of argument 1: a {@code Dataset} or a plain value
 * @param <B> the type of argument 2: a {@code Dataset} or a plain value
 * @param <C> the type of argument 3: a {@code Dataset} or a plain value
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Stage3<A, B, C> implements Fn3<A, B, C, Dataset<Row>> {
  @Serial private static final long serialVersionUID = 1L;
  private final transient StageRunner runner;
  private final transient StageSpec spec;

  Stage3(StageRunner runner, StageSpec spec) {
    this.runner = runner;
    this.spec = spec;
  }

  /**
   * The stage's result for these arguments: read from the cache, or computed, stored and read.
   *
   * @param a argument 1
   * @param b argument 2
   * @param c argument 3
   * @return the stored result
   * @throws StageKeyException if an argument cannot be keyed (a non-deterministic plan, a stream, an RDD
   *     or JDBC input) and the stage does not opt in
   */
  @Override
  public Dataset<Row> apply(A a, B b, C c) {
    return runner().call(spec, new Object[] {a, b, c});
  }

  /**
   * The same as {@link #apply}: what {@code Fn3} runs.
   *
   * @param a argument 1
   * @param b argument 2
   * @param c argument 3
   * @return the stored result
   */
  @Override
  public Dataset<Row> invoke(A a, B b, C c) {
    return apply(a, b, c);
  }

  /**
   * Whether this call would read a stored entry, and if not, which parts of its key differ from the
   * latest entry of this stage: the function's code, an input's files, a plan, a setting, an
   * argument. The same typed answer as a memoized function's {@code explain}; its {@code toString()}
   * is a sentence for people.
   *
   * @param a argument 1
   * @param b argument 2
   * @param c argument 3
   * @return whether it would hit, and what differs; nothing is computed
   * @throws StageKeyException if the call cannot be keyed (as {@code apply} would throw)
   */
  public MissExplanation explain(A a, B b, C c) {
    return runner().explain(spec, new Object[] {a, b, c});
  }

  /**
   * This stage, keying plans with non-deterministic expressions ({@code rand()}, {@code uuid()},
   * {@code current_timestamp()}, a UDF marked non-deterministic) as they are: a stored result is then
   * one of the results the stage could give.
   *
   * @return the stage with the option
   */
  public Stage3<A, B, C> allowNondeterministic() {
    return new Stage3<>(runner(), spec.allowingNondeterministic());
  }

  /**
   * This stage, with a key of your own for inputs the stage cache cannot fingerprint (a JDBC or
   * Iceberg table, a Delta change data feed, an RDD): the stage is keyed by it instead, so change
   * it when the input changes.
   *
   * @param key a table version, an export date, a snapshot id
   * @return the stage with the option
   */
  public Stage3<A, B, C> inputKey(String key) {
    return new Stage3<>(runner(), spec.withInputKey(key));
  }

  /**
   * This stage, computing again on every call and replacing the stored entry.
   *
   * @return the stage with the option
   */
  public Stage3<A, B, C> refresh() {
    return new Stage3<>(runner(), spec.refreshing());
  }

  /**
   * This stage, writing its result partitioned by {@code columns} (part of the key: the columns of
   * a partitioned table come back in another order).
   *
   * @param columns the partition columns
   * @return the stage with the option
   */
  public Stage3<A, B, C> partitionBy(String... columns) {
    return new Stage3<>(runner(), spec.partitionedBy(columns));
  }

  /**
   * This stage, compressing its data with {@code codec} ({@code snappy}, {@code zstd}, {@code gzip},
   * {@code none} ...; not part of the key).
   *
   * @param codec the format's compression codec
   * @return the stage with the option
   */
  public Stage3<A, B, C> compression(String codec) {
    return new Stage3<>(runner(), spec.compressedWith(codec));
  }

  /**
   * This stage, treating entries created more than {@code age} ago as absent (they are computed
   * again and replaced).
   *
   * @param age a positive duration
   * @return the stage with the option
   */
  public Stage3<A, B, C> expiresAfter(Duration age) {
    return new Stage3<>(runner(), spec.expiringAfter(age));
  }

  /**
   * The stored entries of this stage function, newest first.
   *
   * @return its entries
   */
  public List<StageEntry> entries() {
    return StageCatalog.of(runner().catalog()).list(stageFolder());
  }

  /**
   * Deletes every stored entry of this stage function.
   *
   * @return how many entries were deleted
   */
  public int clear() {
    return StageCatalog.of(runner().catalog()).clear(stageFolder());
  }

  /**
   * The folder of this stage function under {@code stages/} ({@code Pipeline.clean-1a2b3c4d5e6f}).
   *
   * @return the folder's name
   */
  public String stageFolder() {
    return StageCache.stageFolderOf(spec);
  }

  private StageRunner runner() {
    if (runner == null) {
      throw new IllegalStateException("a cached stage runs on the driver, with its SparkSession: it was"
          + " serialized (sent to an executor?) and cannot run there. Call it on the driver.");
    }
    return runner;
  }

  /**
   * For people.
   *
   * @return {@code Stage3(Pipeline.clean)}
   */
  @Override
  public String toString() {
    return "Stage3(" + (spec == null ? "?" : io.joblib4j.FunctionFingerprint.of(spec.fn()).name()) + ")";
  }
}
