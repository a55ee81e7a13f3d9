package io.joblib4j;

import io.joblib4j.fn.Action;
import io.joblib4j.internal.parallel.Options;
import io.joblib4j.spi.Backend;
import java.nio.file.Path;
import java.time.Duration;
import org.apiguardian.api.API;

/**
 * The settings shared by {@link Parallel#builder()} and {@link ParallelConfig#builder()}, with
 * joblib's meaning. Every setter validates its value at once, so a bad value fails where it was
 * written.
 *
 * @param <B> the concrete builder, returned by every setter for chaining
 */
@API(status = API.Status.STABLE, since = "0.1")
public abstract class ParallelOptions<B extends ParallelOptions<B>> {
  final Options options = new Options();

  ParallelOptions() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * Runs calls on the backend registered under {@code name}: {@code "sequential"}, {@code
   * "threads"} (the default), {@code "processes"}, {@code "spark"}, or one registered with {@link
   * io.joblib4j.spi.Backends#register}.
   *
   * @param name a registered backend's name
   * @return this builder
   */
  public B backend(String name) {
    options.backend(name);
    return self();
  }

  /**
   * Runs calls on {@code instance}; its owner closes it.
   *
   * @param instance the backend
   * @return this builder
   */
  public B backend(Backend instance) {
    options.backend(instance);
    return self();
  }

  /**
   * The number of jobs: a positive count, {@code -1} for all CPUs (all task slots on Spark), {@code
   * -2} for all but one, and so on. 0 has no meaning and is rejected. Unset, the backend's default
   * applies (1, a sequential run, for the local backends, as in joblib).
   *
   * @param nJobs the number of jobs
   * @return this builder
   */
  public B nJobs(int nJobs) {
    options.nJobs(nJobs);
    return self();
  }

  /**
   * Progress output: 0 is silent; above 0 prints joblib-style lines ({@code Done 14 out of 20 |
   * elapsed: 2.5s}) on stderr, or draws a progress bar when stderr is a terminal and the optional
   * {@code me.tongfei:progressbar} is on the classpath; above 10 reports every batch; 50 and above
   * prints on stdout.
   *
   * @param level the verbosity, 0 or more
   * @return this builder
   */
  public B verbose(int level) {
    options.verbose(level);
    return self();
  }

  /**
   * A fixed number of tasks per batch (joblib's {@code batch_size}).
   *
   * @param tasks the tasks per batch, 1 or more
   * @return this builder
   */
  public B batchSize(int tasks) {
    options.batchSize(tasks);
    return self();
  }

  /**
   * {@code "auto"} (the default: batches grow until each takes 0.2 to 2 seconds, but to at most
   * 4,096 tasks and to a share of the heap by a rough estimate of their tasks' and results' bytes)
   * or a number.
   *
   * @param spec {@code "auto"}, or a number of tasks
   * @return this builder
   */
  public B batchSize(String spec) {
    options.batchSize(spec);
    return self();
  }

  /**
   * How many tasks are taken from the input before results come back: {@code "2*n_jobs"} (the
   * default), {@code "all"}, a number, or an arithmetic expression of {@code n_jobs}. The input is
   * consumed lazily beyond that.
   *
   * @param expression {@code "all"}, a number, or an expression in {@code n_jobs} such as {@code
   *     "2*n_jobs"}
   * @return this builder
   */
  public B preDispatch(String expression) {
    options.preDispatch(expression);
    return self();
  }

  /**
   * A number of tasks taken from the input before results come back.
   *
   * @param tasks the number of tasks dispatched up front
   * @return this builder
   */
  public B preDispatch(int tasks) {
    options.preDispatch(tasks);
    return self();
  }

  /**
   * A task that runs longer fails the call with a {@link java.util.concurrent.TimeoutException};
   * the remaining tasks are cancelled. The sequential backend cannot enforce it and warns.
   *
   * @param timeout the longest a task may run
   * @return this builder
   */
  public B timeout(Duration timeout) {
    options.timeout(timeout);
    return self();
  }

  /**
   * A soft hint, used only when no backend is named.
   *
   * @param prefer the preference
   * @return this builder
   */
  public B prefer(Prefer prefer) {
    options.prefer(prefer);
    return self();
  }

  /**
   * {@code "threads"} or {@code "processes"}.
   *
   * @param prefer {@code "threads"} or {@code "processes"}
   * @return this builder
   */
  public B prefer(String prefer) {
    return prefer(Prefer.parse(prefer));
  }

  /**
   * A hard constraint: {@code SHAREDMEM} picks threads when no backend is named, and is an error
   * with a backend whose tasks run in other JVMs.
   *
   * @param require the requirement
   * @return this builder
   */
  public B require(Require require) {
    options.require(require);
    return self();
  }

  /**
   * {@code "sharedmem"}.
   *
   * @param require {@code "sharedmem"}
   * @return this builder
   */
  public B require(String require) {
    return require(Require.parse(require));
  }

  /**
   * Runs once in each worker before its first task: once per thread for threads, once per child
   * JVM for processes, once per executor JVM on Spark. For state a task needs that must be set up
   * in the worker itself (native libraries, class initialization, connections).
   *
   * @param initializer the action, serializable
   * @return this builder
   */
  public B initializer(Action initializer) {
    options.initializer(initializer);
    return self();
  }

  /**
   * Arguments larger than this many bytes are shared with workers instead of copied into each
   * task: memory-mapped for child JVMs, broadcast once on Spark. Default 1 MiB; negative disables.
   *
   * @param bytes the threshold in bytes; negative disables sharing
   * @return this builder
   */
  public B maxNbytes(long bytes) {
    options.maxNbytes(bytes);
    return self();
  }

  /**
   * {@code "1M"}, {@code "64K"}, {@code "10G"}, or {@code "none"} to disable sharing.
   *
   * @param size the threshold as joblib writes it, e.g. {@code "1M"}
   * @return this builder
   */
  public B maxNbytes(String size) {
    options.maxNbytes(size);
    return self();
  }

  /**
   * Where shared temporary files go (default: {@code /dev/shm} when large enough, else the system
   * temp folder).
   *
   * @param folder the folder
   * @return this builder
   */
  public B tempFolder(Path folder) {
    options.tempFolder(folder);
    return self();
  }

  /**
   * The number of threads each task may use itself, instead of {@code cpuCount / nJobs} (joblib's
   * {@code inner_max_num_threads}).
   *
   * @param threads the threads each task may use
   * @return this builder
   */
  public B innerThreads(int threads) {
    options.innerThreads(threads);
    return self();
  }

  /**
   * Told how calls progress, in addition to any {@code verbose} output.
   *
   * @param listener told of the progress of every call
   * @return this builder
   */
  public B progress(ProgressListener listener) {
    options.progress(listener);
    return self();
  }
}
