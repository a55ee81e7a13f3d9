package io.joblib4j.internal.processes;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How worker JVMs are started: this JVM's {@code java}, the worker class path, and the JVM options
 * and environment built from the backend's options. Two backends with equal launch specs (and
 * timeouts) share workers.
 *
 * <p>Per call, the thread budget ({@code cpuCount / nJobs} unless set) goes to the worker as {@code
 * ForkJoinPool.common.parallelism} and as the variables native thread pools read ({@code
 * OMP_NUM_THREADS} ...), unless this JVM's environment sets them already: the user's setting
 * wins, as in joblib. Both are read once, when a JVM or a native library starts, which is why
 * workers of a different budget are different workers.
 *
 * @param java the {@code java} executable
 * @param classpath the worker class path
 * @param jvmOptions every JVM option except the budget's, in order (later ones win)
 * @param env environment variables set for workers on top of this JVM's
 */
record LaunchSpec(String java, List<String> classpath, List<String> jvmOptions, Map<String, String> env) {
  /** The variables that size native thread pools (joblib's {@code MAX_NUM_THREADS_VARS}). */
  static final List<String> THREAD_VARS = List.of("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
      "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS", "NUMEXPR_NUM_THREADS");
  static final String DEPTH_PROPERTY = "joblib4j.processes.depth";
  static final String FJP_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";
  /** Beyond this, command lines go through an argument file: Linux limits one argument to 128 KiB. */
  private static final int MAX_COMMAND_CHARS = 32 * 1024;

  LaunchSpec {
    classpath = List.copyOf(classpath);
    jvmOptions = List.copyOf(jvmOptions);
    env = Map.copyOf(env);
  }

  // by hand, as PoolKey's: the generated ones cost a fresh JVM's first call their bootstrap
  @Override
  public boolean equals(Object o) {
    return o instanceof LaunchSpec s && java.equals(s.java) && classpath.equals(s.classpath)
        && jvmOptions.equals(s.jvmOptions) && env.equals(s.env);
  }

  @Override
  public int hashCode() {
    return Objects.hash(java, classpath, jvmOptions, env);
  }

  static LaunchSpec of(ProcessesOptions options, WorkerClasspath classpath) {
    List<String> jvm = new ArrayList<>();
    // exit code 3 on heap exhaustion instead of limping on with a broken heap; see CrashDiagnosis
    jvm.add("-XX:+ExitOnOutOfMemoryError");
    if (options.heap() != null) {
      jvm.add("-Xmx" + options.heap());
    }
    if (options.inheritJvmOptions()) {
      jvm.addAll(InheritedJvmOptions.get());
    }
    jvm.addAll(options.jvmOptions());
    String exe = System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java";
    return new LaunchSpec(Path.of(System.getProperty("java.home"), "bin", exe).toString(), classpath.entries(), jvm,
        options.env());
  }

  /**
   * This spec as the next worker is started with it: folders of the class path replaced by the
   * jars of their content made so far ({@link WorkerCds#jarFolders}). Not part of the pool's key,
   * so that workers started before and after a folder was jarred serve the same calls.
   */
  LaunchSpec forNextWorker() {
    List<String> cp = WorkerCds.jarFolders(classpath);
    return cp.equals(classpath) ? this : new LaunchSpec(java, cp, jvmOptions, env);
  }

  /** How deep this JVM is in a tree of workers: 0 for an application, 1 in a worker, ... */
  static int currentDepth() {
    return Integer.getInteger(DEPTH_PROPERTY, 0);
  }

  /**
   * The command that starts one worker connecting to {@code address} ({@link WorkerListener#workerArguments}), through an argument file in {@code scratch} if long (Linux
   * limits one argument to 128 KiB, and a class path can be longer);
   * {@code extra} (class-data sharing) goes before the options of this spec, so those win.
   */
  List<String> command(int threadBudget, List<String> address, Supplier<Path> scratch, List<String> extra)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.add("-D" + FJP_PARALLELISM + "=" + threadBudget);
    args.add("-D" + DEPTH_PROPERTY + "=" + (currentDepth() + 1));
    args.addAll(extra);
    args.addAll(jvmOptions);
    args.add("-cp");
    args.add(String.join(File.pathSeparator, classpath));
    args.add(WorkerMain.class.getName());
    args.addAll(address);
    List<String> command = new ArrayList<>();
    command.add(java);
    int chars = args.stream().mapToInt(String::length).sum();
    if (chars <= MAX_COMMAND_CHARS) {
      command.addAll(args);
    } else {
      Path argFile = Files.createTempFile(scratch.get(), "args-", "");
      StringBuilder sb = new StringBuilder();
      for (String a : args) {
        sb.append('"').append(a.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
      }
      Files.writeString(argFile, sb, StandardCharsets.UTF_8);
      command.add("@" + argFile);
    }
    return command;
  }

  /** The worker's environment: this JVM's, the thread limits it does not set, then the option's. */
  Map<String, String> environment(int threadBudget, Map<String, String> inherited) {
    Map<String, String> e = new HashMap<>(inherited);
    for (String v : THREAD_VARS) {
      e.putIfAbsent(v, Integer.toString(threadBudget));
    }
    e.putAll(env);
    return e;
  }
}
