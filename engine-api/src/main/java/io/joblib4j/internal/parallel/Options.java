package io.joblib4j.internal.parallel;

import io.joblib4j.Prefer;
import io.joblib4j.ProgressListener;
import io.joblib4j.Require;
import io.joblib4j.fn.Action;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Backends;
import io.joblib4j.spi.support.ByteSizes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The settings both {@code Parallel.Builder} and {@code ParallelConfig.Builder} take, validated as
 * they are set so that a bad value fails where it was written, with a message saying what to
 * write instead.
 */
public final class Options {
  private String backendName;
  private Backend backend;
  private final Map<String, Object> backendOptions = new LinkedHashMap<>();
  private Integer nJobs;
  private boolean resetNJobs;
  private Integer verbose;
  private Integer batchSize;
  private String preDispatch;
  private Duration timeout;
  private Prefer prefer;
  private Require require;
  private Action initializer;
  private Long maxNbytes;
  private Path tempFolder;
  private Integer innerThreads;
  private ProgressListener progress;

  public void backend(String name) {
    Objects.requireNonNull(name, "backend name");
    Backends.validateName(name.trim());
    this.backendName = name.trim();
    this.backend = null;
  }

  public void backend(Backend instance) {
    this.backend = Objects.requireNonNull(instance, "backend");
    this.backendName = null;
  }

  public void backendOption(String key, Object value) {
    Objects.requireNonNull(key, "option key");
    backendOptions.put(key, value);
  }

  public void nJobs(int n) {
    if (n == 0) {
      throw new IllegalArgumentException(
          "nJobs == 0 has no meaning: use a positive count, -1 for all CPUs, or -2 for all but one");
    }
    this.nJobs = n;
    this.resetNJobs = false;
  }

  public void resetNJobs() {
    this.nJobs = null;
    this.resetNJobs = true;
  }

  public void verbose(int level) {
    if (level < 0) {
      throw new IllegalArgumentException("verbose must be >= 0, got " + level);
    }
    this.verbose = level;
  }

  public void batchSize(int size) {
    if (size <= 0) {
      throw new IllegalArgumentException(
          "batchSize must be a positive number of tasks, or \"auto\"; got " + size);
    }
    this.batchSize = size;
  }

  public void batchSize(String spec) {
    Objects.requireNonNull(spec, "batchSize");
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.equals("auto")) {
      this.batchSize = ConfigValues.AUTO_BATCH;
      return;
    }
    try {
      batchSize(Integer.parseInt(s));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "batchSize must be a positive number of tasks, or \"auto\"; got \"" + spec + "\"", e);
    }
  }

  public void autoBatchSize() {
    this.batchSize = ConfigValues.AUTO_BATCH;
  }

  public void preDispatch(String expression) {
    Objects.requireNonNull(expression, "preDispatch");
    PreDispatch.validate(expression);
    this.preDispatch = expression;
  }

  public void preDispatch(int tasks) {
    if (tasks <= 0) {
      throw new IllegalArgumentException("preDispatch must be a positive number of tasks, got " + tasks);
    }
    this.preDispatch = Integer.toString(tasks);
  }

  public void timeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    this.timeout = timeout;
  }

  public void prefer(Prefer prefer) {
    this.prefer = Objects.requireNonNull(prefer, "prefer");
  }

  public void require(Require require) {
    this.require = Objects.requireNonNull(require, "require");
  }

  public void initializer(Action initializer) {
    this.initializer = Objects.requireNonNull(initializer, "initializer");
  }

  public void maxNbytes(long bytes) {
    this.maxNbytes = bytes;
  }

  public void maxNbytes(String size) {
    Objects.requireNonNull(size, "maxNbytes");
    String s = size.trim().toLowerCase(Locale.ROOT);
    this.maxNbytes = s.equals("none") ? -1L : ByteSizes.parse(size);
  }

  public void tempFolder(Path folder) {
    this.tempFolder = Objects.requireNonNull(folder, "tempFolder");
  }

  public void innerThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("innerThreads must be >= 1, got " + threads);
    }
    this.innerThreads = threads;
  }

  public void progress(ProgressListener listener) {
    this.progress = Objects.requireNonNull(listener, "progress listener");
  }

  /** The values set so far, checked for combinations that cannot work together. */
  public ConfigValues toValues() {
    if (!backendOptions.isEmpty() && backendName == null) {
      throw new IllegalArgumentException(backend != null
          ? "backend options are only supported with a backend name, not an instance: configure the"
              + " instance directly instead of passing " + backendOptions.keySet()
          : "backend options " + backendOptions.keySet() + " need a backend name: write"
              + " backend(\"name\").option(...)");
    }
    if (prefer == Prefer.PROCESSES && require == Require.SHAREDMEM) {
      throw new IllegalArgumentException(
          "prefer(PROCESSES) contradicts require(SHAREDMEM): processes do not share memory");
    }
    return new ConfigValues(backendName, backend, backendOptions, nJobs, resetNJobs, verbose,
        batchSize, preDispatch, timeout, prefer, require, initializer, maxNbytes, tempFolder,
        innerThreads, progress, 0, 0);
  }
}
