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
 * A progress bar on stderr (progressbar) while a walk over the cache runs, shown only when stdout is
 * a terminal and the walk has taken more than a second: scripts and pipes never see one, and quick
 * commands do not flicker. The cache API walks in one call, so the bar shows that the walk is alive
 * and for how long, not a fraction done.
 */
public final class Progress {
  /** Walks quicker than this show no bar. */
  static final long SHOW_AFTER_MILLIS = 1_000;

  private Progress() {}

  public static <T> T during(String task, Supplier<T> walk) {
    Context c = Context.current();
    if (!c.terminal()) {
      return walk.get();
    }
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "joblib4j-progress");
      t.setDaemon(true);
      return t;
    });
    ProgressBar[] bar = new ProgressBar[1];
    ScheduledFuture<?> show = timer.schedule(() -> {
      synchronized (bar) {
        bar[0] = new ProgressBarBuilder().setTaskName(task).setInitialMax(-1).setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new ConsoleProgressBarConsumer(c.err())).setUpdateIntervalMillis(250).continuousUpdate()
            .clearDisplayOnFinish().build();
      }
    }, SHOW_AFTER_MILLIS, TimeUnit.MILLISECONDS);
    try {
      return walk.get();
    } finally {
      show.cancel(false);
      synchronized (bar) {
        if (bar[0] != null) {
          bar[0].close();
        }
      }
      timer.shutdownNow();
    }
  }
}
