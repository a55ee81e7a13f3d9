package io.joblib4j.internal.processes;

import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What this JVM's JIT compilers are doing to the methods a dynamic class-data-sharing archive would
 * hold (those of classes not defined by the boot loader: Java 17 archives no boot class
 * dynamically), as the diagnostic commands {@code Compiler.queue} and {@code Compiler.codelist}
 * tell: whether a compilation of one is queued or running, and the highest compile id of their
 * compiled code. A compilation gets its id as it is queued, so two equal quiet snapshots around an
 * action mean no such compilation was queued during it ({@link CdsRecorder}). Compilations of the
 * JDK's boot classes (the dump itself makes some) do not count.
 *
 * @param quiet no compilation of such a method queued or running
 * @param lastCompileId the highest compile id of such a method's compiled code, 0 if none
 */
record CompilerActivity(boolean quiet, long lastCompileId) {

  /** Whether compilations of a class's methods count, by class name as the commands print it. */
  interface Counted {
    boolean test(String className);

    /**
     * Classes of this JVM not defined by the boot loader, and names it cannot find. A hidden class
     * ({@code Host$$Lambda$12/0x...}, {@code java.lang.invoke.LambdaForm$MH/0x...}) counts as the
     * class it is named after.
     */
    static Counted archivable() {
      Map<String, Boolean> known = new HashMap<>();
      return name -> known.computeIfAbsent(name, n -> {
        boolean hidden = n.indexOf('/') >= 0;
        String c = hidden ? n.substring(0, n.indexOf('/')) : n;
        while (true) {
          try {
            return Class.forName(c, false, ClassLoader.getSystemClassLoader()).getClassLoader() != null;
          } catch (ClassNotFoundException | LinkageError e) {
            if (!hidden || c.lastIndexOf('$') < 0) {
              return true;
            }
            c = c.substring(0, c.lastIndexOf('$')); // Host$$Lambda$12 -> Host$$Lambda -> Host$ -> Host
          }
        }
      });
    }
  }

  static CompilerActivity of(MBeanServer server, ObjectName diagnosticCommands, Counted counted) throws JMException {
    String queue = (String) server.invoke(diagnosticCommands, "compilerQueue", new Object[0], new String[0]);
    String code = (String) server.invoke(diagnosticCommands, "compilerCodelist", new Object[0], new String[0]);
    return new CompilerActivity(isQuiet(queue, counted), lastCompileId(code, counted));
  }

  /**
   * Whether {@code Compiler.queue}'s output lists no compilation (running, or in a queue) of a
   * counted class's method; entries read {@code [thread] id tier [flags] pkg.Class::method (n bytes)}.
   */
  static boolean isQuiet(String queueOutput, Counted counted) {
    for (String line : queueOutput.split("\n")) {
      int sep = line.indexOf("::");
      if (sep > 0 && counted.test(line.substring(line.lastIndexOf(' ', sep) + 1, sep))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The highest compile id of a counted class's method in {@code Compiler.codelist}'s output;
   * lines read {@code id tier state pkg.Class.method(signature) [addresses]}.
   */
  static long lastCompileId(String codelistOutput, Counted counted) {
    long last = 0;
    for (String line : codelistOutput.split("\n")) {
      String[] f = line.trim().split("\\s+", 4);
      int paren = f.length == 4 ? f[3].indexOf('(') : -1;
      int dot = paren > 0 ? f[3].lastIndexOf('.', paren) : -1;
      if (dot > 0 && f[0].chars().allMatch(Character::isDigit) && f[0].length() < 19
          && counted.test(f[3].substring(0, dot))) {
        last = Math.max(last, Long.parseLong(f[0]));
      }
    }
    return last;
  }
}
