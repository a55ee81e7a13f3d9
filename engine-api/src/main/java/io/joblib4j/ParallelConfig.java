package io.joblib4j;

import io.joblib4j.fn.Action;
import io.joblib4j.internal.parallel.ConfigStack;
import io.joblib4j.internal.parallel.ConfigValues;
import io.joblib4j.spi.Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Thread-scoped defaults for every {@link Parallel} call made in a block of code — joblib's
 * {@code parallel_config}. Useful when the code that calls {@code Parallel} is not yours:
 *
 * <pre>{@code
 * try (ParallelConfig.Scope s = ParallelConfig.backend("spark").nJobs(8).apply()) {
 *   thirdPartyLibrary.fitAll(models);   // its Parallel calls run on Spark with 8 jobs
 * }
 * }</pre>
 *
 * <p>Scopes nest: an inner scope inherits everything the outer one set and overrides what it sets
 * itself; closing a scope restores the previous settings exactly. Values set explicitly on a
 * {@link Parallel.Builder} always win over the scope. The settings belong to the thread that opened
 * the scope; threads it starts do not see them.
 *
 * <p>Inside a task, the active configuration tells nested code where it runs: {@link
 * #nestingLevel()} is 1 in a task of a top-level call, and {@link #threadBudget()} is how many
 * threads the task may use itself ({@code cpuCount / nJobs} of the enclosing call).
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class ParallelConfig {
  private final ConfigValues values;

  private ParallelConfig(ConfigValues values) {
    this.values = values;
  }

  /**
   * The settings in effect on the current thread (nothing set outside any scope).
   *
   * @return the configuration in effect in this thread
   */
  public static ParallelConfig current() {
    return new ParallelConfig(ConfigStack.current());
  }

  /**
   * A new configuration to fill in.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a configuration naming a backend ({@code "threads"}, {@code "spark"}, ...).
   *
   * @param name a registered backend's name
   * @return a new builder with that backend
   */
  public static Builder backend(String name) {
    return builder().backend(name);
  }

  /**
   * Starts a configuration with a backend instance.
   *
   * @param instance the backend
   * @return a new builder with that backend
   */
  public static Builder backend(Backend instance) {
    return builder().backend(instance);
  }

  /**
   * Starts a configuration setting the number of jobs.
   *
   * @param nJobs the number of jobs
   * @return a new builder with that number of jobs
   */
  public static Builder nJobs(int nJobs) {
    return builder().nJobs(nJobs);
  }

  /**
   * Makes these settings current on this thread until the returned scope is closed.
   *
   * @return the scope; closing it restores the configuration before it
   */
  public Scope apply() {
    return new Scope(ConfigStack.push(values));
  }

  /**
   * The backend name set, if any.
   *
   * @return the backend's name, if one was set by name
   */
  public Optional<String> backendName() {
    return Optional.ofNullable(values.backendName());
  }

  /**
   * The backend instance set, if any.
   *
   * @return the backend, if one was set as an instance
   */
  public Optional<Backend> backendInstance() {
    return Optional.ofNullable(values.backend());
  }

  /**
   * The options for the named backend.
   *
   * @return the backend options set, by name
   */
  public Map<String, Object> backendOptions() {
    return values.backendOptions();
  }

  /**
   * The number of jobs set, if any.
   *
   * @return the number of jobs, if set
   */
  public Optional<Integer> nJobs() {
    return Optional.ofNullable(values.nJobs());
  }

  /**
   * The verbosity set, if any.
   *
   * @return the verbosity, if set
   */
  public Optional<Integer> verbose() {
    return Optional.ofNullable(values.verbose());
  }

  /**
   * The timeout set, if any.
   *
   * @return the timeout, if set
   */
  public Optional<Duration> timeout() {
    return Optional.ofNullable(values.timeout());
  }

  /**
   * The worker initializer set, if any.
   *
   * @return the initializer, if set
   */
  public Optional<Action> initializer() {
    return Optional.ofNullable(values.initializer());
  }

  /**
   * The temporary folder for shared arguments set, if any.
   *
   * @return the folder, if set
   */
  public Optional<Path> tempFolder() {
    return Optional.ofNullable(values.tempFolder());
  }

  /**
   * 0 outside any task; 1 inside a task of a top-level call; 2 one level deeper; ...
   *
   * @return the nesting level, from 0
   */
  public int nestingLevel() {
    return values.nestingLevel();
  }

  /**
   * How many threads code running here may use: inside a task, the budget of the enclosing call
   * ({@code cpuCount / nJobs}, or what {@code innerThreads} set); outside tasks, {@link
   * Parallel#cpuCount()}. Libraries with their own thread pools should size them with it.
   *
   * @return the number of threads, at least 1
   */
  public int threadBudget() {
    if (values.threadBudget() > 0) {
      return values.threadBudget();
    }
    return values.innerThreads() != null ? values.innerThreads() : Parallel.cpuCount();
  }

  @Override
  public String toString() {
    return "ParallelConfig" + values;
  }

  /** An applied configuration; closing it restores the previous one. */
  @API(status = API.Status.STABLE, since = "0.1")
  public static final class Scope implements AutoCloseable {
    private final ConfigStack.Scope scope;

    private Scope(ConfigStack.Scope scope) {
      this.scope = scope;
    }

    /**
     * Restores the settings that were current when this scope was applied.
     *
     * @throws IllegalStateException if an inner scope is still open, or another thread closes it
     */
    @Override
    public void close() {
      scope.close();
    }
  }

  /** Fills in a {@link ParallelConfig}; every setter validates its value at once. */
  @API(status = API.Status.STABLE, since = "0.1")
  public static final class Builder extends ParallelOptions<Builder> {
    private Builder() {}

    /**
     * An option for the named backend, e.g. {@code option("heap", "512m")} for processes.
     *
     * @param key the option's name, as the backend documents it
     * @param value its value
     * @return this builder
     */
    public Builder option(String key, Object value) {
      options.backendOption(key, value);
      return this;
    }

    /**
     * Resets nJobs to the backend's default inside this scope (joblib's {@code n_jobs=None}).
     *
     * @return this builder
     */
    public Builder defaultNJobs() {
      options.resetNJobs();
      return this;
    }

    /**
     * The configuration, not yet applied.
     *
     * @return the configuration
     */
    public ParallelConfig build() {
      return new ParallelConfig(options.toValues());
    }

    /**
     * Builds the configuration and applies it: {@code try (var s = ....apply()) { ... }}.
     *
     * @return the scope; closing it restores the configuration before it
     */
    public Scope apply() {
      return build().apply();
    }
  }
}
