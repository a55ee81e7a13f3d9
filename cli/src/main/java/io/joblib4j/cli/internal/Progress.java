package io.joblib4j.cli.internal;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr for walks over many entries, shown only when stdout is a terminal and
 * the walk is long enough to be worth one; otherwise nothing at all (scripts and pipes see no
 * control characters).
 */
public final class Progress implements AutoCloseable {
  /** Walks shorter than this show no bar. */
  static final long MIN_STEPS = 1_000;
  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  public static Progress start(String task, long steps) {
    Context c = Context.current();
    if (!c.terminal() || steps < MIN_STEPS) {
      return new Progress(null);
    }
    return new Progress(new ProgressBarBuilder().setTaskName(task).setInitialMax(steps)
        .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(c.err()))
        .setUpdateIntervalMillis(200).continuousUpdate().clearDisplayOnFinish().build());
  }

  public boolean shown() {
    return bar != null;
  }

  public void step() {
    if (bar != null) {
      bar.step();
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
