package io.joblib4j.internal.progress;

import io.joblib4j.ProgressListener;

/**
 * Decides whether {@code verbose} output is a console progress bar: only when stderr is a
 * terminal, the verbosity is below 50 (stdout output), the optional {@code
 * me.tongfei:progressbar} library is on the classpath, and {@code -Djoblib4j.progressBar=false}
 * was not given. This class never touches the library itself, so it loads without it.
 */
public final class ConsoleBarReporter {
  private static final boolean LIBRARY_PRESENT = present("me.tongfei.progressbar.ProgressBar");

  private ConsoleBarReporter() {}

  /** Whether a bar should replace the verbose lines for this verbosity. */
  public static boolean usable(int verbose) {
    return verbose > 0 && verbose < 50 && LIBRARY_PRESENT && System.console() != null
        && !"false".equalsIgnoreCase(System.getProperty("joblib4j.progressBar"));
  }

  /** A bar drawing on stderr. */
  public static ProgressListener create() {
    return new ProgressBarListener(System.err);
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, ConsoleBarReporter.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
