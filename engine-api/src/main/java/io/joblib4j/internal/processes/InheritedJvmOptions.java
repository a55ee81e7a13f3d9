package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of this JVM that workers need to behave like it: module flags ({@code --add-opens}
 * and friends: code that needs them here needs them there), system properties given with {@code
 * -D}, and assertion switches. Not inherited: heap and GC settings ({@code -X}, {@code -XX}; the
 * backend's {@code heap} and {@code jvmOptions} set those), agents and debuggers (a second JVM
 * cannot listen on the same debug port, and coverage agents would mix their files), and the
 * properties that describe this JVM's own launch.
 */
final class InheritedJvmOptions {
  private static final List<String> MODULE_FLAGS = List.of("--add-opens", "--add-exports", "--add-reads",
      "--add-modules", "--enable-native-access", "--illegal-access", "--limit-modules");
  private static final List<String> SKIPPED_PROPERTIES = List.of("java.class.path", "jdk.module.",
      "sun.java.command", "sun.java.launcher", "java.util.concurrent.ForkJoinPool.common.parallelism",
      "joblib4j.processes.depth", "java.rmi.server.", "com.sun.management.jmxremote");
  private static final LazyLogger LOG = LazyLogger.of(InheritedJvmOptions.class);
  private static final java.util.concurrent.atomic.AtomicBoolean PREFETCHED = new java.util.concurrent.atomic.AtomicBoolean();

  private InheritedJvmOptions() {}

  /** This JVM's options that workers inherit, computed once (waiting if {@link #prefetch} is computing them). */
  static List<String> get() {
    return Computed.OPTIONS;
  }

  /**
   * Starts computing {@link #get} on a thread of its own: the platform's runtime MXBean costs a
   * fresh JVM 30-50 ms of class loading, which a backend made just before its first call should
   * not add to that call's path.
   */
  static void prefetch() {
    if (PREFETCHED.getAndSet(true)) {
      return; // computed or being computed: a backend per call must not start a thread per call
    }
    Thread t = new Thread(InheritedJvmOptions::get, "joblib4j-jvm-options");
    t.setDaemon(true);
    t.start();
  }

  /** Class initialization makes this once, and makes every other caller wait for it. */
  private static final class Computed {
    static final List<String> OPTIONS = compute();

    private static List<String> compute() {
      try {
        return select(ManagementFactory.getRuntimeMXBean().getInputArguments());
      } catch (RuntimeException | LinkageError e) { // a runtime without java.management, a security manager
        LOG.get().warn("workers inherit none of this JVM's options: cannot read them ({}); pass what they need"
            + " with the processes backend's jvmOptions", e.toString());
        return List.of();
      }
    }
  }

  /** The inheritable subset of {@code args}, in order. */
  static List<String> select(List<String> args) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String flag = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (MODULE_FLAGS.contains(flag)) {
        if (a.contains("=")) {
          out.add(a);
        } else if (i + 1 < args.size()) {
          out.add(a + "=" + args.get(++i)); // "--add-opens x=y" becomes one argument
        }
      } else if (a.equals("--enable-preview") || a.matches("-(e|d)(a|sa)(:.*)?")
          || a.matches("-(enable|disable)(system)?assertions(:.*)?")) {
        out.add(a);
      } else if (a.startsWith("-D") && SKIPPED_PROPERTIES.stream().noneMatch(p -> a.startsWith("-D" + p))) {
        out.add(a);
      }
    }
    return List.copyOf(out);
  }
}
