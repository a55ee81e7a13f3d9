package io.joblib4j.cli.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr (progressbar) while a walk over the cache runs, shown only when stderr
 * is a terminal and the walk has taken more than a second ({@code JOBLIB4J_PROGRESS_AFTER}
 * milliseconds; {@code JOBLIB4J_NO_PROGRESS} turns it off): logs, pipes and scripts never see one,
 * stdout (tables, {@code --json}) never does, and quick commands do not flicker. The cache API walks
 * in one call, so the bar shows that the walk is alive and for how long, not a fraction done.
 */
public final class Progress {
  /** Walks quicker than this (milliseconds) show no bar, unless {@code JOBLIB4J_PROGRESS_AFTER} says otherwise. */
  static final long SHOW_AFTER_MILLIS = 1_000;

  private Progress() {}

  public static <T> T during(String task, Supplier<T> walk) {
    Context c = Context.current();
    if (!c.progress()) {
      return walk.get();
    }
    long after = showAfterMillis(c);
    ProgressBar[] bar = new ProgressBar[1];
    Runnable show = () -> {
      if (Terminals.stderrIsTerminal()) { // asked only of walks that last: it may start a process
        synchronized (bar) {
          bar[0] = new ProgressBarBuilder().setTaskName(task).setInitialMax(-1).setStyle(ProgressBarStyle.ASCII)
              .setConsumer(new ConsoleProgressBarConsumer(c.err())).setUpdateIntervalMillis(250).continuousUpdate()
              .clearDisplayOnFinish().build();
        }
      }
    };
    ScheduledExecutorService timer = null;
    ScheduledFuture<?> shown = null;
    if (after <= 0) {
      show.run();
    } else {
      timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "joblib4j-progress");
        t.setDaemon(true);
        return t;
      });
      shown = timer.schedule(show, after, TimeUnit.MILLISECONDS);
    }
    try {
      return walk.get();
    } finally {
      if (shown != null) {
        shown.cancel(false);
      }
      synchronized (bar) {
        if (bar[0] != null) {
          bar[0].close();
        }
      }
      if (timer != null) {
        timer.shutdownNow();
      }
    }
  }

  private static long showAfterMillis(Context c) {
    String after = c.environment().get("JOBLIB4J_PROGRESS_AFTER");
    if (after == null || after.isBlank()) {
      return SHOW_AFTER_MILLIS;
    }
    try {
      return Long.parseLong(after.trim());
    } catch (NumberFormatException e) {
      throw new CliException(io.joblib4j.cli.Main.USAGE, "JOBLIB4J_PROGRESS_AFTER=" + after
          + ": not a number of milliseconds; e.g. JOBLIB4J_PROGRESS_AFTER=500");
    }
  }
}
