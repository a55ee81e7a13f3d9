package io.joblib4j;

import io.joblib4j.internal.processes.ProcessesBackend;
import io.joblib4j.spi.Backend;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Builds a {@code processes} backend explicitly — child-JVM workers, joblib's {@code loky} — for
 * {@code Parallel.builder().backend(instance)}. The same settings are available by name as backend
 * options:
 *
 * <pre>{@code
 * try (Backend procs = Processes.builder().heap("2g").jvmOptions("-XX:+UseParallelGC").build();
 *      Parallel p = Parallel.builder().backend(procs).nJobs(4).build()) {
 *   List<Result> r = p.run(tasks);
 * }
 * // or, by name:
 * try (var s = ParallelConfig.backend("processes").option("heap", "2g").nJobs(4).apply()) { ... }
 * }</pre>
 *
 * <p>Workers start with this JVM's {@code java}, class path (plus the local jars of the calling
 * thread's context class loader, where Spark and notebooks put user jars) and module flags; they
 * get {@code cpuCount / nJobs} threads for their own parallelism ({@code
 * ForkJoinPool.common.parallelism}, {@code OMP_NUM_THREADS} and friends, unless this JVM's
 * environment sets those). Workers are reused by later calls, and — unless {@code reuse(false)} —
 * by every other processes backend with equal settings; they exit after the idle timeout (default
 * 300 s) and when this JVM exits, even if it is killed.
 *
 * <p>When the class path is all jars, workers start from a class-data-sharing archive of their
 * classes, recorded once per machine by the first worker that exits normally and kept in {@code
 * <java.io.tmpdir>/joblib4j-cds-<user>} (used only if that folder is this user's alone, {@code
 * rwx------}: another user's would be a way into this user's workers): about a fifth less CPU to
 * start. {@code
 * -Djoblib4j.processes.cds=false} turns this off; a CDS option in {@code jvmOptions} does too.
 */
@API(status = API.Status.MAINTAINED, since = "0.1")
public final class Processes {
  private Processes() {}

  /**
   * A builder with the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a processes backend; every setter checks its value when the backend is built. */
  @API(status = API.Status.MAINTAINED, since = "0.1")
  public static final class Builder {
    private final Map<String, Object> options = new LinkedHashMap<>();

    private Builder() {}

    /**
     * The workers' maximum heap, as for {@code -Xmx}: {@code "512m"}, {@code "4g"}. Default: the
     * JVM's.
     *
     * @param size a JVM size, e.g. {@code "2g"}
     * @return this builder
     */
    public Builder heap(String size) {
      options.put("heap", Objects.requireNonNull(size, "size"));
      return this;
    }

    /**
     * More JVM options for the workers, after the inherited ones (so they win).
     *
     * @param jvmOptions JVM flags, one per element
     * @return this builder
     */
    public Builder jvmOptions(String... jvmOptions) {
      options.put("jvmOptions", List.of(jvmOptions));
      return this;
    }

    /**
     * Whether workers inherit this JVM's module flags ({@code --add-opens} ...), {@code -D}
     * properties and assertion switches (default true). Heap, GC and agent options are never
     * inherited.
     *
     * @param inherit whether workers get this JVM's flags
     * @return this builder
     */
    public Builder inheritJvmOptions(boolean inherit) {
      options.put("inheritJvmOptions", inherit);
      return this;
    }

    /**
     * Environment variables for the workers, over this JVM's environment.
     *
     * @param env variables added to the workers' environment
     * @return this builder
     */
    public Builder env(Map<String, String> env) {
      options.put("env", Map.copyOf(env));
      return this;
    }

    /**
     * How long an idle worker waits for work before it exits (default 300 s).
     *
     * @param timeout how long an idle worker is kept
     * @return this builder
     */
    public Builder idleTimeout(Duration timeout) {
      options.put("idleTimeout", Objects.requireNonNull(timeout, "timeout"));
      return this;
    }

    /**
     * How long a new worker may take to connect before its start counts as failed (default 60 s).
     *
     * @param timeout how long a worker may take to connect
     * @return this builder
     */
    public Builder startTimeout(Duration timeout) {
      options.put("startTimeout", Objects.requireNonNull(timeout, "timeout"));
      return this;
    }

    /**
     * How long idle workers outlive this JVM, waiting for the next program started with the same
     * settings (JDK, class path content, JVM options, environment, working folder) to adopt them
     * instead of starting new ones: a short program's first call then skips the workers' JVM start
     * (default zero: workers end with this JVM; the system property {@code
     * joblib4j.processes.keepWarm} sets it for programs that set no options). Opt in only for
     * programs that expect it, as with Gradle's daemon: what tasks leave in static fields stays
     * in a worker from one program to the next, and a worker prints through the program that
     * adopted it. Workers are parked when this JVM exits (or, if idle, when it is killed); those of a
     * backend built with {@code reuse(false)} still end when it is closed. Needs Unix-domain
     * sockets (Linux, macOS).
     *
     * <pre>{@code
     * Parallel p = Parallel.builder()
     *     .backend(Processes.builder().keepWarm(Duration.ofMinutes(2)).build())
     *     .build();
     * }</pre>
     *
     * @param keep how long parked workers wait for the next program; zero for not at all
     * @return this builder
     */
    public Builder keepWarm(Duration keep) {
      options.put("keepWarm", Objects.requireNonNull(keep, "keep"));
      return this;
    }

    /**
     * Whether to share workers with other processes backends of equal settings in this JVM
     * (default true, like loky's reusable executor). With {@code false}, this backend's workers
     * are its own and stop when it is closed.
     *
     * @param reuse whether workers serve several calls
     * @return this builder
     */
    public Builder reuse(boolean reuse) {
      options.put("reuse", reuse);
      return this;
    }

    /**
     * The backend.
     *
     * @return the backend, which its caller closes
     * @throws IllegalArgumentException if a setting is invalid
     */
    public Backend build() {
      return ProcessesBackend.create(options);
    }
  }
}
