package io.joblib4j.spi;

import io.joblib4j.fn.Action;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the core tells a backend about one {@code Parallel} call.
 *
 * @param callId a unique id, e.g. for Spark job groups and temporary folder names
 * @param nJobs the effective number of workers, already resolved ({@code > 0})
 * @param description the function the call applies ({@code Scorer.score}), or {@code "tasks"} when
 *     tasks apply several functions
 * @param initializer run once in each worker before its first task, or {@code null}
 * @param threadBudget how many threads a task may use itself ({@code cpuCount / nJobs} unless the
 *     user set it); backends with separate processes pass it on through the usual variables
 * @param maxNbytes arguments larger than this many bytes are shared instead of copied per task
 *     (memory-mapped, broadcast); negative disables sharing
 * @param tempFolder where a backend may put shared temporary files, or {@code null} for its default
 * @param timeout the per-task timeout the core enforces, or {@code null}; informational (the core
 *     cancels the call through {@link BackendCall#cancel()} when it expires)
 * @param verbose the verbosity the user asked for
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public record CallSpec(
    String callId,
    int nJobs,
    String description,
    Action initializer,
    int threadBudget,
    long maxNbytes,
    Path tempFolder,
    Duration timeout,
    int verbose) {

  /**
   * Checks that the id and description are given and {@code nJobs} is resolved.
   *
   * @param callId a unique id, e.g. for Spark job groups and temporary folder names
   * @param nJobs the effective number of workers, already resolved ({@code > 0})
   * @param description the function the call applies ({@code Scorer.score}), or {@code "tasks"}
   *     when tasks apply several functions
   * @param initializer run once in each worker before its first task, or {@code null}
   * @param threadBudget how many threads a task may use itself ({@code cpuCount / nJobs} unless the
   *     user set it); backends with separate processes pass it on through the usual variables
   * @param maxNbytes arguments larger than this many bytes are shared instead of copied per task
   *     (memory-mapped, broadcast); negative disables sharing
   * @param tempFolder where a backend may put shared temporary files, or {@code null} for its
   *     default
   * @param timeout the per-task timeout the core enforces, or {@code null}; informational (the core
   *     cancels the call through {@link BackendCall#cancel()} when it expires)
   * @param verbose the verbosity the user asked for
   */
  public CallSpec {
    Objects.requireNonNull(callId, "callId");
    Objects.requireNonNull(description, "description");
    if (nJobs < 1) {
      throw new IllegalArgumentException("nJobs must be resolved to at least 1, got " + nJobs);
    }
  }

  /**
   * The initializer, if any.
   *
   * @return the initializer, or empty
   */
  public Optional<Action> initializerIfAny() {
    return Optional.ofNullable(initializer);
  }
}
