package io.joblib4j;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.fn.Fn1;
import io.joblib4j.internal.CpuCount;
import io.joblib4j.internal.parallel.CallPlan;
import io.joblib4j.internal.parallel.Calls;
import io.joblib4j.internal.parallel.ConfigStack;
import io.joblib4j.internal.parallel.ConfigValues;
import io.joblib4j.internal.parallel.DetachedConfig;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Backends;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apiguardian.api.API;

/**
 * joblib's parallel for-loop: runs {@link Delayed} tasks on a backend's workers and gives back
 * their results.
 *
 * <pre>{@code
 * import static io.joblib4j.Delayed.delayed;
 *
 * List<Double> roots = Parallel.nJobs(2)
 *     .run(IntStream.range(0, 10).mapToObj(i -> delayed(Math::sqrt, (double) i * i)));
 *
 * try (Parallel p = Parallel.builder().nJobs(-1).backend("spark").verbose(10).build()) {
 *   List<Long> a = p.run(tasks);                   // results in input order
 *   Iterator<Long> it = p.iterate(tasks);          // streamed, in input order
 *   Iterator<Long> un = p.iterateUnordered(tasks); // streamed, fastest first
 *   List<Long> m = p.map(Work::score, inputs);     // delayed(Work::score, x) per input
 * }                                                 // close() releases the workers
 * }</pre>
 *
 * <p>Semantics follow joblib: the input is consumed lazily ({@code preDispatch} tasks up front,
 * then a batch more per finished batch, pausing while finished batches wait for a caller of
 * {@code iterate} who reads slower than the workers run); batches size themselves ({@code
 * batchSize("auto")}, capped by count and by estimated bytes, so a stream of any length runs in
 * a bounded heap); the first task that throws makes the call throw that same exception — type, message and cause
 * chain kept, the worker's stack trace in it, a suppressed note saying which task failed where —
 * and cancels the tasks still running; a {@code timeout} fails the call with a {@link
 * java.util.concurrent.TimeoutException}. Checked exceptions propagate undeclared, as they were
 * thrown.
 *
 * <p>One instance runs one call at a time. Used in try-with-resources, an instance keeps its
 * workers between calls (joblib's "reusing a pool of workers") and stays usable after a failed
 * call; {@link #close()} releases them. An instance that is never closed holds only idle daemon
 * threads, which exit on their own.
 *
 * <p>A {@code Parallel} is serializable as its settings alone, so that whatever holds one can travel
 * to workers — in a Scala notebook, a task's lambda captures its cell and every value the cell holds
 * or uses, so no {@code @transient} is needed on a {@code val p = Parallel...}. The copy owns no
 * workers: a backend given as an instance is created again by name if the copy is ever used.
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class Parallel implements AutoCloseable, Serializable {
  @Serial private static final long serialVersionUID = 1L;
  /** The options set on the builder; the rest come from the context when a call starts. */
  private final ConfigValues explicit;
  /**
   * The backends this instance created by name, kept for its next calls and closed by {@link
   * #close()}.
   */
  private final Map<String, Backend> ownedBackends = new LinkedHashMap<>();
  /** Set while a call runs: one call at a time. */
  private final AtomicBoolean running = new AtomicBoolean();
  /** Set by {@link #close()}. */
  private volatile boolean closed;

  private Parallel(ConfigValues explicit) {
    this.explicit = explicit;
  }

  /**
   * Serialized as its settings alone: the copy owns no workers.
   *
   * @return the settings, which deserialize as a new {@code Parallel}
   */
  @Serial
  private Object writeReplace() {
    return new Detached(DetachedConfig.of(explicit));
  }

  /** The serialized form: settings only, never workers or a running call. */
  private record Detached(DetachedConfig config) implements Serializable {
    @Serial
    private Object readResolve() {
      return new Parallel(config.toValues());
    }
  }

  /**
   * A {@code Parallel} with {@code nJobs} jobs and everything else from the context or defaults.
   *
   * @param nJobs the number of jobs: {@code -1} all CPUs, {@code -2} all but one
   * @return the instance
   */
  public static Parallel nJobs(int nJobs) {
    return builder().nJobs(nJobs).build();
  }

  /**
   * A builder for every option.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The number of CPUs this JVM may use (affinity, cgroup quotas and {@code JOBLIB4J_MAX_CPU_COUNT}
   * honoured).
   *
   * @return the number of CPUs, at least 1
   */
  public static int cpuCount() {
    return CpuCount.get();
  }

  /**
   * How many workers a call with {@code nJobs} would use on the current default backend (the
   * active {@link ParallelConfig}'s, else threads); joblib's {@code effective_n_jobs}.
   *
   * @param nJobs as {@link Builder#nJobs(int)} takes it
   * @return the number of workers
   */
  public static int effectiveNJobs(int nJobs) {
    try (Parallel p = builder().nJobs(nJobs).build()) {
      return p.effectiveNJobs();
    }
  }

  /**
   * How many workers this instance's next call will use.
   *
   * @return the number of workers
   */
  public int effectiveNJobs() {
    return plan().nJobs();
  }

  /**
   * Runs every task and returns the results in input order.
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return every result, in the order of the tasks
   */
  public <R> List<R> run(Stream<? extends Delayed<? extends R>> tasks) {
    return Calls.collect(start(tasks, true));
  }

  /**
   * Runs every task and returns the results in input order.
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return every result, in the order of the tasks
   */
  public <R> List<R> run(Iterable<? extends Delayed<? extends R>> tasks) {
    return Calls.collect(start(tasks, true));
  }

  /**
   * Starts the tasks and streams their results in input order as they are ready (joblib's {@code
   * return_as="generator"}). Close the iterator, or read it to the end, before the next call.
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return the results, in input order; closing it cancels what still runs
   */
  public <R> ResultIterator<R> iterate(Stream<? extends Delayed<? extends R>> tasks) {
    return start(tasks, true);
  }

  /**
   * Like {@link #iterate(Stream)}.
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return the results, in input order; closing it cancels what still runs
   */
  public <R> ResultIterator<R> iterate(Iterable<? extends Delayed<? extends R>> tasks) {
    return start(tasks, true);
  }

  /**
   * Starts the tasks and streams their results as they finish, fastest first (joblib's {@code
   * return_as="generator_unordered"}).
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return the results, as they finish; closing it cancels what still runs
   */
  public <R> ResultIterator<R> iterateUnordered(Stream<? extends Delayed<? extends R>> tasks) {
    return start(tasks, false);
  }

  /**
   * Like {@link #iterateUnordered(Stream)}.
   *
   * @param <R> the result type
   * @param tasks the tasks, taken lazily as the call dispatches them
   * @return the results, as they finish; closing it cancels what still runs
   */
  public <R> ResultIterator<R> iterateUnordered(Iterable<? extends Delayed<? extends R>> tasks) {
    return start(tasks, false);
  }

  /**
   * {@code fn} applied to every input, in input order: {@code run(delayed(fn, x) for x in inputs)}.
   *
   * @param <T> the input type
   * @param <R> the result type
   * @param fn the function
   * @param inputs the inputs, taken lazily
   * @return {@code fn} of every input, in input order
   */
  public <T, R> List<R> map(Fn1<T, R> fn, Iterable<? extends T> inputs) {
    Objects.requireNonNull(fn, "fn");
    Iterator<? extends T> in = inputs.iterator();
    Iterator<Delayed<R>> tasks = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return in.hasNext();
      }

      @Override
      public Delayed<R> next() {
        return delayed(fn, in.next());
      }
    };
    if (inputs instanceof Collection<?> known) {
      // the size travels with the tasks: a backend's batching hint can cut them per worker
      return Calls.collect(start(StreamSupport.stream(Spliterators.spliterator(tasks, known.size(),
          Spliterator.ORDERED), false), true));
    }
    return Calls.collect(start(tasks, true));
  }

  /**
   * {@code fn} applied to every input of the stream, in input order.
   *
   * @param <T> the input type
   * @param <R> the result type
   * @param fn the function
   * @param inputs the inputs, taken lazily
   * @return {@code fn} of every input, in input order
   */
  public <T, R> List<R> map(Fn1<T, R> fn, Stream<? extends T> inputs) {
    Objects.requireNonNull(fn, "fn");
    return run(inputs.map(x -> delayed(fn, x)));
  }

  /**
   * Releases the workers of the backends this instance created (an instance passed to {@code
   * backend(instance)} stays its owner's). A call still streaming is cancelled.
   */
  @Override
  public void close() {
    List<Backend> toClose;
    synchronized (ownedBackends) {
      closed = true;
      toClose = new ArrayList<>(ownedBackends.values());
      ownedBackends.clear();
    }
    RuntimeException first = null;
    for (Backend b : toClose) {
      try {
        b.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    String backend = explicit.backend() != null ? explicit.backend().name()
        : explicit.backendName() != null ? explicit.backendName() : "default";
    return "Parallel(nJobs=" + (explicit.nJobs() == null ? "default" : explicit.nJobs())
        + ", backend=" + backend + ")";
  }

  private <R> ResultIterator<R> start(Stream<? extends Delayed<? extends R>> tasks, boolean ordered) {
    Objects.requireNonNull(tasks, "tasks");
    return begin(plan -> Calls.start(plan, tasks.spliterator(), ordered, this::callEnded));
  }

  private <R> ResultIterator<R> start(Iterable<? extends Delayed<? extends R>> tasks, boolean ordered) {
    Objects.requireNonNull(tasks, "tasks");
    return begin(plan -> Calls.start(plan, tasks.spliterator(), ordered, this::callEnded));
  }

  private <R> ResultIterator<R> start(Iterator<? extends Delayed<? extends R>> tasks, boolean ordered) {
    return begin(plan -> Calls.start(plan, tasks, ordered, this::callEnded));
  }

  private <R> ResultIterator<R> begin(java.util.function.Function<CallPlan, ResultIterator<R>> starter) {
    if (closed) {
      throw new IllegalStateException("this Parallel instance is closed; build a new one");
    }
    if (!running.compareAndSet(false, true)) {
      throw new IllegalStateException("this Parallel instance is already running a call: the iterator"
          + " of a previous iterate()/iterateUnordered() is still open. Read it to the end or close()"
          + " it first, or use a separate Parallel instance for concurrent calls.");
    }
    CallPlan plan;
    try {
      plan = plan();
    } catch (RuntimeException | Error e) {
      running.set(false);
      throw e;
    }
    return starter.apply(plan);
  }

  private void callEnded() {
    running.set(false);
  }

  private CallPlan plan() {
    return CallPlan.resolve(explicit, ConfigStack.current(), this::backendNamed);
  }

  private Backend backendNamed(String name, Map<String, Object> options) {
    String key = options.isEmpty() ? name : name + options;
    synchronized (ownedBackends) {
      if (closed) {
        throw new IllegalStateException("this Parallel instance is closed; build a new one");
      }
      Backend b = ownedBackends.get(key);
      if (b == null) {
        b = Backends.create(name, options);
        ownedBackends.put(key, b);
      }
      return b;
    }
  }

  /** Builds a {@link Parallel}; every setter validates its value at once. */
  @API(status = API.Status.STABLE, since = "0.1")
  public static final class Builder extends ParallelOptions<Builder> {
    private Builder() {}

    /**
     * The configured instance. Builders can be reused; each build is independent.
     *
     * @return a new instance
     */
    public Parallel build() {
      return new Parallel(options.toValues());
    }
  }
}
