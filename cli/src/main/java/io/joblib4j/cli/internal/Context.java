package io.joblib4j.cli.internal;

import java.io.PrintStream;
import java.util.Map;

/**
 * Where one run of the command writes, and the environment it reads; {@code progress}: whether a
 * progress bar may go to {@code err} (it is this process's stderr, and JOBLIB4J_NO_PROGRESS is not set).
 */
public record Context(PrintStream out, PrintStream err, Map<String, String> environment, boolean progress) {
  private static final ThreadLocal<Context> CURRENT = new ThreadLocal<>();

  /** The context of the command running on this thread. */
  public static Context current() {
    Context c = CURRENT.get();
    if (c == null) {
      throw new IllegalStateException("no command is running on this thread");
    }
    return c;
  }

  static void set(Context c) {
    if (c == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(c);
    }
  }
}
