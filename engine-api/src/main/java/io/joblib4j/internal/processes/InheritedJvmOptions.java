package io.joblib4j.internal.processes;

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
  private static volatile List<String> cached;

  private InheritedJvmOptions() {}

  /** This JVM's options that workers inherit, computed once. */
  static List<String> get() {
    List<String> c = cached;
    if (c == null) {
      c = select(ManagementFactory.getRuntimeMXBean().getInputArguments());
      cached = c;
    }
    return c;
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
