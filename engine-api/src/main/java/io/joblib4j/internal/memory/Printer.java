package io.joblib4j.internal.memory;

import java.time.Duration;
import java.util.Locale;

/** Memory's verbose output, in joblib's words, on stdout (joblib prints it). */
final class Printer {
  private static final String RULE = "_".repeat(80);

  private Printer() {}

  static void calling(String function, Object[] args) {
    System.out.println(RULE + "\n[Memory] Calling " + function + "...\n" + function + "(" + CallKeys.joined(args) + ")");
  }

  static void done(String function, Duration took) {
    double s = took.toNanos() / 1e9;
    String tail = function + " - " + String.format(Locale.ROOT, "%.1fs, %.1fmin", s, s / 60);
    System.out.println("_".repeat(Math.max(0, 80 - tail.length())) + tail);
  }

  static void loading(String function, Object[] args, String where, int verbose) {
    System.out.println("[Memory] Loading " + function + "(" + CallKeys.joined(args) + ")"
        + (verbose >= 10 ? " from " + where : "") + "...");
  }

  static void line(String message) {
    System.out.println("[Memory] " + message);
  }
}
