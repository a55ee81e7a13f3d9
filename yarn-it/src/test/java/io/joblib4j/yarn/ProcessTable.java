package io.joblib4j.yarn;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This machine's process table, where the MiniYARNCluster's containers and the JVMs they start run
 * beside the test: which processes there are, and waiting for some to end.
 */
final class ProcessTable {
  /** Between two reads of the table while waiting for processes nobody here is the parent of. */
  private static final long POLL_MILLIS = 250;

  private ProcessTable() {}

  /** The process {@code pid} if it is the one that started at {@code startMillis} and still runs. */
  static Optional<ProcessHandle> alive(long pid, long startMillis) {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
        .filter(h -> h.info().startInstant().map(s -> s.toEpochMilli() == startMillis).orElse(false));
  }

  /** A process's command line, or "" where the table does not show it. */
  static String commandLine(ProcessHandle h) {
    return h.info().commandLine().orElse("");
  }

  /** The running processes whose command line contains {@code text}. */
  static List<ProcessHandle> naming(String text) {
    return ProcessHandle.allProcesses().filter(h -> commandLine(h).contains(text)).toList();
  }

  /** Waits until every one of {@code processes} has ended; fails naming those still running after {@code timeout}. */
  static void awaitEnd(List<ProcessHandle> processes, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (ProcessHandle h : processes) {
      try {
        h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("still running " + timeout + " later: " + describe(processes));
      } catch (ExecutionException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Waits until no running process's command line contains {@code text}; fails naming them after {@code timeout}. */
  static void awaitNoneNaming(String text, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ProcessHandle> left;
    while (!(left = naming(text)).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("processes naming " + text + " still running " + timeout + " later: " + describe(left));
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  static String describe(List<ProcessHandle> processes) {
    StringBuilder sb = new StringBuilder();
    for (ProcessHandle h : processes) {
      if (h.isAlive()) {
        String cmd = commandLine(h);
        sb.append("\n  ").append(h.pid()).append(": ").append(cmd.length() > 300 ? cmd.substring(0, 300) + "..." : cmd);
      }
    }
    return sb.toString();
  }
}
