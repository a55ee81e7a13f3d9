package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Copies a worker's stdout or stderr to this JVM's {@code System.out} / {@code System.err} — looked
 * up at every write, so output lands wherever the application (a notebook, a test runner) has
 * redirected them — and remembers what a crash report needs: the last lines, and the JVM's own
 * out-of-memory notice, which {@code -XX:+ExitOnOutOfMemoryError} prints just before exit code 3.
 */
final class OutputPump implements Runnable {
  static final String OOM_NOTICE = "Terminating due to java.lang.OutOfMemoryError";
  private static final int TAIL = 4096;

  private final InputStream in;
  private final Supplier<PrintStream> target;
  private final Thread thread;
  private final byte[] tail = new byte[TAIL];
  private int tailLength;
  private volatile String oomNotice;

  OutputPump(InputStream in, Supplier<PrintStream> target, String threadName) {
    this.in = in;
    this.target = target;
    this.thread = new Thread(this, threadName);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  @Override
  public void run() {
    byte[] buf = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buf)) > 0) {
        PrintStream out = target.get();
        out.write(buf, 0, n);
        out.flush();
        remember(buf, n);
      }
    } catch (IOException e) {
      // the worker is gone
    }
  }

  private synchronized void remember(byte[] buf, int n) {
    if (n >= TAIL) {
      System.arraycopy(buf, n - TAIL, tail, 0, TAIL);
      tailLength = TAIL;
    } else {
      int keep = Math.min(tailLength, TAIL - n);
      System.arraycopy(tail, tailLength - keep, tail, 0, keep);
      System.arraycopy(buf, 0, tail, keep, n);
      tailLength = keep + n;
    }
    if (oomNotice == null) {
      String text = new String(tail, 0, tailLength, StandardCharsets.UTF_8);
      int at = text.indexOf(OOM_NOTICE);
      if (at >= 0) {
        int end = text.indexOf('\n', at);
        oomNotice = text.substring(at, end < 0 ? text.length() : end).trim();
      }
    }
  }

  /** Waits up to {@code millis} for the worker's end of the stream to close. */
  void awaitEnd(long millis) {
    try {
      thread.join(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The JVM's out-of-memory notice if the worker printed one, else null. */
  String oomNotice() {
    return oomNotice;
  }

  /** The last {@code lines} lines the worker wrote here. */
  synchronized String lastLines(int lines) {
    String text = new String(tail, 0, tailLength, StandardCharsets.UTF_8).stripTrailing();
    int at = text.length();
    for (int i = 0; i < lines && at > 0; i++) {
      at = text.lastIndexOf('\n', at - 1);
      if (at < 0) {
        at = 0;
        break;
      }
    }
    return text.substring(at).strip();
  }
}
