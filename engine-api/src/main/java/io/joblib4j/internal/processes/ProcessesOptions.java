package io.joblib4j.internal.processes;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The options of the {@code processes} backend, from {@code ParallelConfig.backend("processes")
 * .option(key, value)} or {@link io.joblib4j.Processes}, validated where they are given.
 *
 * @param heap the workers' maximum heap ({@code "512m"}, {@code "4g"}), or null for the JVM's default
 * @param jvmOptions more options for the worker JVMs, after the inherited ones (so they win)
 * @param inheritJvmOptions whether workers get this JVM's module flags, {@code -D} properties and
 *     assertion switches
 * @param env environment variables for the workers, over this JVM's environment
 * @param idleTimeout how long an idle worker waits for work before it exits
 * @param startTimeout how long a new worker may take to connect before it counts as failed
 * @param reuse share workers with every other {@code processes} backend of equal settings in
 *     this JVM (loky's reusable executor); when false, the workers are this backend's and stop when
 *     it is closed
 * @param keepWarm how long idle workers outlive this JVM, parked for the next program started with
 *     the same settings to adopt ({@link WarmWorkers}); zero (the default) for never
 */
record ProcessesOptions(String heap, List<String> jvmOptions, boolean inheritJvmOptions, Map<String, String> env,
    Duration idleTimeout, Duration startTimeout, boolean reuse, Duration keepWarm) {

  /** The system property that sets {@code keepWarm} where the backend's options do not. */
  static final String KEEP_WARM_PROPERTY = "joblib4j.processes.keepWarm";
  static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(300);
  static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
  static final List<String> KEYS = List.of("heap", "jvmOptions", "inheritJvmOptions", "env", "idleTimeout",
      "startTimeout", "reuse", "keepWarm");
  private static final Pattern HEAP = Pattern.compile("\\d+[kKmMgGtT]?");

  static final ProcessesOptions DEFAULTS =
      new ProcessesOptions(null, List.of(), true, Map.of(), DEFAULT_IDLE_TIMEOUT, DEFAULT_START_TIMEOUT, true,
          Duration.ZERO);

  ProcessesOptions {
    if (heap != null && !HEAP.matcher(heap).matches()) {
      throw new IllegalArgumentException("processes option heap must be a JVM heap size such as \"512m\" or"
          + " \"4g\", got \"" + heap + "\"");
    }
    jvmOptions = List.copyOf(jvmOptions);
    env = Map.copyOf(env);
    requirePositive("idleTimeout", idleTimeout);
    requirePositive("startTimeout", startTimeout);
    if (keepWarm == null || keepWarm.isNegative()) {
      throw new IllegalArgumentException("processes option keepWarm must be zero (do not keep workers after"
          + " this JVM ends) or a positive duration, got " + keepWarm);
    }
  }

  /** Parses backend options; unknown keys are an error that lists the known ones. */
  static ProcessesOptions parse(Map<String, Object> options) {
    ProcessesOptions o = DEFAULTS;
    String keepWarm = System.getProperty(KEEP_WARM_PROPERTY);
    if (keepWarm != null && !options.containsKey("keepWarm")) { // for a program whose code sets no options
      o = new ProcessesOptions(o.heap, o.jvmOptions, o.inheritJvmOptions, o.env, o.idleTimeout, o.startTimeout,
          o.reuse, duration(KEEP_WARM_PROPERTY, keepWarm));
    }
    for (Map.Entry<String, Object> e : options.entrySet()) {
      Object v = e.getValue();
      o = switch (e.getKey()) {
        case "heap" -> o.withHeap(v == null ? null : String.valueOf(v).trim());
        case "jvmOptions" -> o.withJvmOptions(strings("jvmOptions", v));
        case "inheritJvmOptions" -> new ProcessesOptions(o.heap, o.jvmOptions, bool("inheritJvmOptions", v), o.env,
            o.idleTimeout, o.startTimeout, o.reuse, o.keepWarm);
        case "env" -> o.withEnv(env(v));
        case "idleTimeout" -> new ProcessesOptions(o.heap, o.jvmOptions, o.inheritJvmOptions, o.env,
            duration("idleTimeout", v), o.startTimeout, o.reuse, o.keepWarm);
        case "startTimeout" -> new ProcessesOptions(o.heap, o.jvmOptions, o.inheritJvmOptions, o.env,
            o.idleTimeout, duration("startTimeout", v), o.reuse, o.keepWarm);
        case "reuse" -> o.withReuse(bool("reuse", v));
        case "keepWarm" -> new ProcessesOptions(o.heap, o.jvmOptions, o.inheritJvmOptions, o.env, o.idleTimeout,
            o.startTimeout, o.reuse, duration("keepWarm", v));
        default -> throw new IllegalArgumentException("unknown option \"" + e.getKey()
            + "\" for the processes backend; it knows: " + String.join(", ", KEYS));
      };
    }
    return o;
  }

  ProcessesOptions withHeap(String h) {
    return new ProcessesOptions(h, jvmOptions, inheritJvmOptions, env, idleTimeout, startTimeout, reuse, keepWarm);
  }

  ProcessesOptions withJvmOptions(List<String> opts) {
    return new ProcessesOptions(heap, opts, inheritJvmOptions, env, idleTimeout, startTimeout, reuse, keepWarm);
  }

  ProcessesOptions withEnv(Map<String, String> e) {
    return new ProcessesOptions(heap, jvmOptions, inheritJvmOptions, e, idleTimeout, startTimeout, reuse, keepWarm);
  }

  ProcessesOptions withReuse(boolean r) {
    return new ProcessesOptions(heap, jvmOptions, inheritJvmOptions, env, idleTimeout, startTimeout, r, keepWarm);
  }

  ProcessesOptions withTimeouts(Duration idle, Duration start) {
    return new ProcessesOptions(heap, jvmOptions, inheritJvmOptions, env, idle, start, reuse, keepWarm);
  }

  ProcessesOptions withInherit(boolean inherit) {
    return new ProcessesOptions(heap, jvmOptions, inherit, env, idleTimeout, startTimeout, reuse, keepWarm);
  }

  private static void requirePositive(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("processes option " + name + " must be a positive duration, got " + d);
    }
  }

  private static List<String> strings(String key, Object v) {
    if (v instanceof String s) {
      return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }
    if (v instanceof String[] a) {
      return List.of(a);
    }
    if (v instanceof Collection<?> c) {
      return c.stream().map(String::valueOf).toList();
    }
    throw new IllegalArgumentException("processes option " + key + " must be a string of options separated"
        + " by spaces or a list of strings, got " + v);
  }

  private static boolean bool(String key, Object v) {
    if (v instanceof Boolean b) {
      return b;
    }
    if ("true".equalsIgnoreCase(String.valueOf(v)) || "false".equalsIgnoreCase(String.valueOf(v))) {
      return Boolean.parseBoolean(String.valueOf(v));
    }
    throw new IllegalArgumentException("processes option " + key + " must be true or false, got " + v);
  }

  private static Map<String, String> env(Object v) {
    if (!(v instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("processes option env must be a Map of variable names to values, got " + v);
    }
    Map<String, String> out = new LinkedHashMap<>();
    m.forEach((k, x) -> out.put(String.valueOf(k), String.valueOf(x)));
    return out;
  }

  static Duration duration(String key, Object v) {
    if (v instanceof Duration d) {
      return d;
    }
    if (v instanceof Number n) {
      return Duration.ofMillis((long) (n.doubleValue() * 1000));
    }
    String s = String.valueOf(v).trim();
    try {
      return s.matches("\\d+(\\.\\d+)?") ? Duration.ofMillis((long) (Double.parseDouble(s) * 1000)) : Duration.parse(s);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("processes option " + key + " must be a Duration, a number of seconds,"
          + " or an ISO-8601 duration such as \"PT5M\", got \"" + s + "\"", e);
    }
  }
}
