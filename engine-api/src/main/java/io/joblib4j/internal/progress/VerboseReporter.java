package io.joblib4j.internal.progress;

import io.joblib4j.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * joblib's {@code verbose} output: {@code [Parallel(n_jobs=2)]: Done  14 out of  20 | elapsed:
 * 2.5s}, on stderr below verbose 50 and stdout from 50, with joblib's frequency rule — sparser as
 * the call goes on at low verbosity, every batch above 10, and a last line when it finishes.
 */
public final class VerboseReporter implements ProgressListener {
  private final Supplier<PrintStream> out;
  private long lastReportedCompleted = -1;
  private long preDispatch;

  /** Prints to stderr (verbose &lt; 50) or stdout, read at each line so redirection is honoured. */
  public VerboseReporter(int verbose) {
    this(() -> verbose >= 50 ? System.out : System.err);
  }

  VerboseReporter(Supplier<PrintStream> out) {
    this.out = out;
  }

  @Override
  public void started(CallInfo call) {
    print(call, "Using backend " + call.backend() + " with " + call.nJobs() + " concurrent worker"
        + (call.nJobs() == 1 ? "." : "s."));
  }

  @Override
  public void progressed(CallInfo call, Progress p) {
    if (p.completedTasks() == lastReportedCompleted || p.complete()) {
      return;
    }
    int width = width(p);
    String elapsed = "| elapsed: " + shortTime(p.elapsedNanos());
    if (!p.dispatchFinished()) {
      if (filteredOut(p.dispatchedBatches(), call.verbose())) {
        return;
      }
      lastReportedCompleted = p.completedTasks();
      if (p.totalTasks() >= 0) {
        print(call, String.format(Locale.ROOT, "Done %" + width + "d out of %" + width + "d %s",
            p.completedTasks(), p.totalTasks(), elapsed));
      } else {
        String pad = " ".repeat(Math.max(0, "out of ".length() + width - "tasks".length()));
        print(call, String.format(Locale.ROOT, "Done %" + width + "d tasks %s%s", p.completedTasks(), pad, elapsed));
      }
      return;
    }
    long index = p.completedTasks();
    long total = p.dispatchedTasks();
    if (preDispatch == 0) {
      preDispatch = Math.max(1, total - index);
    }
    if (index != 0 && call.verbose() <= 10) {
      long cursor = total - index + 1 - preDispatch;
      long frequency = total / Math.max(call.verbose(), 1) + 1;
      boolean lastItem = index + 1 == total;
      if (lastItem || cursor % frequency != 0) {
        return;
      }
    }
    lastReportedCompleted = index;
    double remaining = index == 0 ? 0 : (double) p.elapsedNanos() / index * (total - index);
    print(call, String.format(Locale.ROOT, "Done %" + width + "d out of %" + width + "d %s remaining: %s",
        index, total, elapsed, shortTime((long) remaining)));
  }

  @Override
  public void finished(CallInfo call, Progress p, Throwable failure) {
    if (failure != null) {
      return;
    }
    int width = width(p);
    print(call, String.format(Locale.ROOT, "Done %" + width + "d out of %" + width + "d | elapsed: %s finished",
        p.completedTasks(), p.completedTasks(), shortTime(p.elapsedNanos())));
  }

  /** joblib's {@code _verbosity_filter}: at verbosity 1-10, print when floor(sqrt(i/s)) changes. */
  static boolean filteredOut(long batches, int verbose) {
    if (verbose > 10 || batches == 0) {
      return false;
    }
    double scale = 0.5 * Math.pow(11 - verbose, 2);
    return (long) Math.sqrt(batches / scale) == (long) Math.sqrt((batches + 1) / scale);
  }

  /** joblib's {@code short_format_time}. */
  static String shortTime(long nanos) {
    double s = nanos / 1e9;
    return s > 60
        ? String.format(Locale.ROOT, "%4.1fmin", s / 60)
        : String.format(Locale.ROOT, " %5.1fs", s);
  }

  private static int width(Progress p) {
    long n = p.totalTasks() > 0 ? p.totalTasks() : 0;
    return n > 0 ? (int) Math.floor(Math.log10(n)) + 1 : 3;
  }

  private void print(CallInfo call, String message) {
    PrintStream s = out.get();
    s.println("[Parallel(n_jobs=" + call.nJobs() + ")]: " + message);
    s.flush();
  }
}
