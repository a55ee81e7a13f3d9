package io.joblib4j.internal.parallel;

import io.joblib4j.Prefer;
import io.joblib4j.ProgressListener;
import io.joblib4j.Require;
import io.joblib4j.fn.Action;
import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings of a {@code Parallel} in a form that travels: a backend instance becomes its name
 * (it is created again, by name, if the copy is ever used), and what cannot be serialized (a
 * progress listener or backend option that is not {@link Serializable}) is left behind.
 *
 * <p>A {@code Parallel} is rarely used where it lands; it travels because something that does
 * travel holds it — in a notebook, a task's lambda captures its cell, and the cell holds the
 * {@code Parallel} the user built in it.
 */
public record DetachedConfig(
    String backendName,
    LinkedHashMap<String, Object> backendOptions,
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
    String tempFolder,
    Integer innerThreads,
    ProgressListener progress) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The travelling form of {@code values}. */
  public static DetachedConfig of(ConfigValues values) {
    String backend = values.backend() != null ? values.backend().name() : values.backendName();
    LinkedHashMap<String, Object> options = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : values.backendOptions().entrySet()) {
      if (e.getValue() instanceof Serializable) {
        options.put(e.getKey(), e.getValue());
      }
    }
    return new DetachedConfig(backend, options, values.nJobs(), values.resetNJobs(), values.verbose(),
        values.batchSize(), values.preDispatch(), values.timeout(), values.prefer(), values.require(),
        values.initializer(), values.maxNbytes(),
        values.tempFolder() == null ? null : values.tempFolder().toString(), values.innerThreads(),
        values.progress() instanceof Serializable ? values.progress() : null);
  }

  /** The settings again, as a builder would have set them. */
  public ConfigValues toValues() {
    return new ConfigValues(backendName, null, backendOptions, nJobs, resetNJobs, verbose, batchSize,
        preDispatch, timeout, prefer, require, initializer, maxNbytes,
        tempFolder == null ? null : Path.of(tempFolder), innerThreads, progress, 0, 0);
  }
}
