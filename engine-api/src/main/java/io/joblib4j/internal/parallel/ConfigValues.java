package io.joblib4j.internal.parallel;

import io.joblib4j.Prefer;
import io.joblib4j.ProgressListener;
import io.joblib4j.Require;
import io.joblib4j.fn.Action;
import io.joblib4j.spi.Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One layer of Parallel settings: what a builder or a {@code ParallelConfig} scope set explicitly.
 * A {@code null} field is unset and falls through to the layer below.
 *
 * @param backendName a registered backend name, or null
 * @param backend a backend instance, or null (at most one of name and instance is set)
 * @param backendOptions options for a named backend (empty when none)
 * @param nJobs requested jobs (never 0), or null
 * @param resetNJobs this layer resets nJobs to the backend's default (joblib's {@code
 *     parallel_config(n_jobs=None)})
 * @param batchSize a fixed batch size ({@code > 0}), {@link #AUTO_BATCH}, or null
 * @param preDispatch joblib's pre_dispatch expression ({@code "2*n_jobs"}, {@code "all"}, {@code
 *     "8"}), or null
 * @param maxNbytes the large-argument sharing threshold, negative when disabled, or null
 * @param innerThreads the thread budget of each task, or null for {@code cpuCount / nJobs}
 * @param nestingLevel 0 outside tasks, the depth of nesting inside them
 * @param threadBudget inside a task: how many threads it may use; 0 outside tasks
 */
public record ConfigValues(
    String backendName,
    Backend backend,
    Map<String, Object> backendOptions,
    Integer nJobs,
    boolean resetNJobs,
    Integer verbose,
    Integer batchSize,
    String preDispatch,
    Duration timeout,
    Prefer prefer,
    Require require,
    Action initializer,
    Long maxNbytes,
    Path tempFolder,
    Integer innerThreads,
    ProgressListener progress,
    int nestingLevel,
    int threadBudget) {

  /** The {@link #batchSize} value meaning "auto". */
  public static final int AUTO_BATCH = 0;

  /** Nothing set. */
  public static final ConfigValues EMPTY =
      new ConfigValues(null, null, Map.of(), null, false, null, null, null, null, null, null, null,
          null, null, null, null, 0, 0);

  public ConfigValues {
    backendOptions = Map.copyOf(backendOptions);
  }

  /** Whether this layer names a backend, by name or instance. */
  public boolean setsBackend() {
    return backendName != null || backend != null;
  }

  /** This layer over {@code parent}: every value set here wins, the rest comes from the parent. */
  public ConfigValues over(ConfigValues parent) {
    boolean ownBackend = setsBackend();
    return new ConfigValues(
        ownBackend ? backendName : parent.backendName,
        ownBackend ? backend : parent.backend,
        ownBackend ? backendOptions : parent.backendOptions,
        resetNJobs ? null : (nJobs != null ? nJobs : parent.nJobs),
        resetNJobs || (nJobs == null && parent.resetNJobs),
        pick(verbose, parent.verbose),
        pick(batchSize, parent.batchSize),
        pick(preDispatch, parent.preDispatch),
        pick(timeout, parent.timeout),
        pick(prefer, parent.prefer),
        pick(require, parent.require),
        pick(initializer, parent.initializer),
        pick(maxNbytes, parent.maxNbytes),
        pick(tempFolder, parent.tempFolder),
        pick(innerThreads, parent.innerThreads),
        pick(progress, parent.progress),
        Math.max(nestingLevel, parent.nestingLevel),
        threadBudget != 0 ? threadBudget : parent.threadBudget);
  }

  /** The settings tasks see while they run in a worker: nested Parallel calls use these. */
  public static ConfigValues insideTask(int nestingLevel, int threadBudget) {
    String nestedBackend = nestingLevel <= 1 ? "threads" : "sequential";
    return new ConfigValues(nestedBackend, null, Map.of(), null, true, null, null, null, null, null,
        null, null, null, null, null, null, nestingLevel, threadBudget);
  }

  private static <T> T pick(T own, T inherited) {
    return own != null ? own : inherited;
  }
}
