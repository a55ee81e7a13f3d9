package io.joblib4j.internal.progress;

import io.joblib4j.ProgressListener;
import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A console progress bar for one call, drawn by the progressbar library. */
final class ProgressBarListener implements ProgressListener {
  private final PrintStream out;
  private ProgressBar bar;

  ProgressBarListener(PrintStream out) {
    this.out = out;
  }

  @Override
  public void started(CallInfo call) {
    bar = new ProgressBarBuilder()
        .setTaskName(call.description() + " [" + call.backend() + " x" + call.nJobs() + "]")
        .setInitialMax(-1)
        .setStyle(ProgressBarStyle.ASCII)
        .setConsumer(new ConsoleProgressBarConsumer(out))
        .setUpdateIntervalMillis(100)
        .continuousUpdate()
        .build();
  }

  @Override
  public void progressed(CallInfo call, Progress p) {
    if (bar == null) {
      return;
    }
    if (p.totalTasks() >= 0) {
      bar.maxHint(p.totalTasks());
    }
    bar.stepTo(p.completedTasks());
  }

  @Override
  public void finished(CallInfo call, Progress p, Throwable failure) {
    if (bar == null) {
      return;
    }
    if (failure == null) {
      bar.maxHint(p.completedTasks());
      bar.stepTo(p.completedTasks());
    } else {
      bar.setExtraMessage("failed: " + failure.getClass().getSimpleName());
    }
    bar.close();
    bar = null;
  }
}
