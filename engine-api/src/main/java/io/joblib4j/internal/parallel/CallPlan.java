package io.joblib4j.internal.parallel;

import io.joblib4j.Prefer;
import io.joblib4j.ProgressListener;
import io.joblib4j.Require;
import io.joblib4j.fn.Action;
import io.joblib4j.internal.CpuCount;
import io.joblib4j.internal.progress.ConsoleBarReporter;
import io.joblib4j.internal.progress.VerboseReporter;
import io.joblib4j.spi.Backend;
import io.joblib4j.spi.Batching;
import io.joblib4j.spi.Backends;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.Warnings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Everything one call needs, decided once from the builder's explicit values over the active
 * {@code ParallelConfig}: which backend, how many jobs, batching, pre-dispatch, timeout, progress.
 * The rules are joblib's (explicit beats context; {@code prefer} is only a hint; {@code
 * require(SHAREDMEM)} is a constraint; nested calls run on threads, then sequentially).
 */
public final class CallPlan {
  /** joblib's default {@code max_nbytes}: "1M". */
  public static final long DEFAULT_MAX_NBYTES = 1L << 20;
  /** Thread backends nested deeper than this run sequentially, so recursion cannot explode. */
  static final int MAX_THREAD_NESTING = 2;

  private final Backend backend;
  private final int nJobs;
  private final boolean sequential;
  private final int batchSize;
  private final long preDispatchTasks;
  /** The backend's {@link Batching#ONE_PER_WORKER} hint applies: the user set neither batchSize nor preDispatch. */
  private final boolean onePerWorker;
  private final Duration timeout;
  private final int verbose;
  private final Action initializer;
  private final long maxNbytes;
  private final Path tempFolder;
  private final int threadBudget;
  private final int taskNestingLevel;
  private final List<ProgressListener> listeners;

  private CallPlan(Backend backend, int nJobs, boolean sequential, int batchSize, long preDispatchTasks,
      boolean onePerWorker, Duration timeout, int verbose, Action initializer, long maxNbytes, Path tempFolder,
      int threadBudget, int taskNestingLevel, List<ProgressListener> listeners) {
    this.backend = backend;
    this.nJobs = nJobs;
    this.sequential = sequential;
    this.batchSize = batchSize;
    this.preDispatchTasks = preDispatchTasks;
    this.onePerWorker = onePerWorker;
    this.timeout = timeout;
    this.verbose = verbose;
    this.initializer = initializer;
    this.maxNbytes = maxNbytes;
    this.tempFolder = tempFolder;
    this.threadBudget = threadBudget;
    this.taskNestingLevel = taskNestingLevel;
    this.listeners = listeners;
  }

  /**
   * Decides a call.
   *
   * @param explicit what the {@code Parallel} builder set
   * @param context the active {@code ParallelConfig} of the calling thread
   * @param backends creates (or reuses) the backend of a name with options
   */
  public static CallPlan resolve(ConfigValues explicit, ConfigValues context,
      BiFunction<String, Map<String, Object>, Backend> backends) {
    Prefer prefer = pick(explicit.prefer(), context.prefer());
    Require require = pick(explicit.require(), context.require());
    if (prefer == Prefer.PROCESSES && require == Require.SHAREDMEM) {
      throw new IllegalArgumentException(
          "prefer(PROCESSES) contradicts require(SHAREDMEM): processes do not share memory");
    }
    Integer requestedJobs = explicit.nJobs() != null ? explicit.nJobs() : context.nJobs();
    int verbose = pick(explicit.verbose(), context.verbose(), 0);

    Backend backend;
    if (explicit.setsBackend()) {
      backend = explicit.backend() != null ? explicit.backend()
          : backends.apply(explicit.backendName(), explicit.backendOptions());
      if (require == Require.SHAREDMEM && !backend.traits().sharedMemory()) {
        throw new IllegalArgumentException("backend \"" + backend.name() + "\" does not support shared"
            + " memory, which require(SHAREDMEM) asks for: use a thread-based backend such as \"threads\","
            + " or drop require(SHAREDMEM) if tasks do not mutate shared objects");
      }
    } else if (context.setsBackend()) {
      backend = context.backend() != null ? context.backend()
          : backends.apply(context.backendName(), context.backendOptions());
      if (require == Require.SHAREDMEM && !backend.traits().sharedMemory()) {
        if (verbose >= 10) {
          System.out.println("Using threads as joblib4j backend instead of " + backend.name()
              + " as the latter does not provide shared memory semantics.");
        }
        backend = backends.apply("threads", Map.of());
        if (explicit.nJobs() == null) {
          requestedJobs = 1; // joblib: the context's n_jobs does not carry over to the substitute
        }
      }
    } else {
      String name = prefer == Prefer.PROCESSES && require == null ? "processes" : "threads";
      if (name.equals("processes") && !Backends.available().contains("processes")) {
        Warnings.warn(CallPlan.class, "prefer(PROCESSES): no \"processes\" backend is available; using threads");
        name = "threads";
      }
      backend = backends.apply(name, Map.of());
    }

    int nestingLevel = context.nestingLevel();
    int nJobs = effectiveNJobs(backend, requestedJobs, context.threadBudget());
    boolean sequential = nJobs == 1 && backend.traits().usesThreads()
        || backend instanceof SequentialBackend;
    if (!sequential && backend.traits().usesThreads() && nestingLevel > MAX_THREAD_NESTING) {
      Warnings.warn(CallPlan.class, "a Parallel call nested " + nestingLevel + " levels deep runs"
          + " sequentially: deeper thread pools would only oversubscribe the CPUs");
      sequential = true;
    }
    if (sequential) {
      nJobs = 1;
    }
    int available = context.threadBudget() > 0 ? context.threadBudget() : CpuCount.get();
    Integer innerThreads = pick(explicit.innerThreads(), context.innerThreads());
    int threadBudget = innerThreads != null ? innerThreads : Math.max(1, available / nJobs);

    int batchSize = pick(explicit.batchSize(), context.batchSize(), ConfigValues.AUTO_BATCH);
    String preDispatch = pick(explicit.preDispatch(), context.preDispatch(), "2*n_jobs");
    long preDispatchTasks = PreDispatch.tasks(preDispatch, nJobs);
    boolean onePerWorker = !sequential && batchSize == ConfigValues.AUTO_BATCH
        && pick(explicit.preDispatch(), context.preDispatch()) == null
        && backend.batching() == Batching.ONE_PER_WORKER;
    Duration timeout = pick(explicit.timeout(), context.timeout());
    if (timeout != null && sequential) {
      Warnings.warn(CallPlan.class, "The sequential backend does not support timeout. You have set"
          + " timeout=" + timeout + " but it will not be used: run with nJobs > 1 to enforce it.");
      timeout = null;
    }
    List<ProgressListener> listeners = new ArrayList<>();
    if (verbose > 0) {
      listeners.add(ConsoleBarReporter.usable(verbose) ? ConsoleBarReporter.create() : new VerboseReporter(verbose));
    }
    ProgressListener user = pick(explicit.progress(), context.progress());
    if (user != null) {
      listeners.add(user);
    }
    return new CallPlan(backend, nJobs, sequential, batchSize, preDispatchTasks, onePerWorker, timeout, verbose,
        pick(explicit.initializer(), context.initializer()),
        pick(explicit.maxNbytes(), context.maxNbytes(), DEFAULT_MAX_NBYTES),
        pick(explicit.tempFolder(), context.tempFolder()), threadBudget, nestingLevel + 1,
        List.copyOf(listeners));
  }

  /** joblib's {@code effective_n_jobs}; inside a task, -1 means the task's thread budget. */
  static int effectiveNJobs(Backend backend, Integer requested, int threadBudget) {
    int n = requested != null ? requested : backend.traits().defaultNJobs();
    if (n < 0 && threadBudget > 0) {
      return Math.max(threadBudget + 1 + n, 1);
    }
    int effective = backend.effectiveNJobs(n);
    if (effective < 1) {
      throw new IllegalStateException("backend \"" + backend.name() + "\" has no active worker"
          + " (effectiveNJobs(" + n + ") = " + effective + ")");
    }
    return effective;
  }

  /** The backend call description for a call applying {@code description}. */
  CallSpec spec(String description) {
    return new CallSpec(CallIds.next(), nJobs, description, initializer,
        threadBudget, maxNbytes, tempFolder, timeout, verbose);
  }

  public Backend backend() {
    return backend;
  }

  public int nJobs() {
    return nJobs;
  }

  /** The worker initializer, or null. */
  public Action initializer() {
    return initializer;
  }

    public boolean sequential() {
    return sequential;
  }

  boolean autoBatch() {
    return batchSize == ConfigValues.AUTO_BATCH;
  }

  /** The fixed batch size; 1 for the sequential run of an auto-batched call (joblib). */
  int fixedBatchSize() {
    return autoBatch() ? 1 : batchSize;
  }

  long preDispatchTasks() {
    return preDispatchTasks;
  }

  /** Whether a call of known size is cut into one batch per worker, all sent at once ({@link Batching#ONE_PER_WORKER}). */
  boolean onePerWorker() {
    return onePerWorker;
  }

  Duration timeout() {
    return timeout;
  }

  int verbose() {
    return verbose;
  }

  int taskNestingLevel() {
    return taskNestingLevel;
  }

  List<ProgressListener> listeners() {
    return listeners;
  }

  private static <T> T pick(T explicit, T context) {
    return explicit != null ? explicit : context;
  }

  private static <T> T pick(T explicit, T context, T fallback) {
    return explicit != null ? explicit : context != null ? context : fallback;
  }
}
