package io.joblib4j.internal.worker;

import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Tells the parent, while a batch runs, that it started and how many of its tasks are done, so
 * that the core's timeout applies to each task. Writing a frame per task would cost a system call
 * per tiny task; instead the running batch only updates a counter, and this daemon thread sends
 * what changed every {@link #PERIOD_MILLIS} ms. A batch that ends sooner sends nothing extra: its
 * outcome frame carries the buffered STARTED frame along.
 *
 * <p>While batches keep coming the thread just ticks, so that starting a batch wakes no thread (on
 * a small machine a wake-up costs more than a tiny batch); after a second without work it sleeps
 * until the next batch wakes it.
 */
final class ProgressReporter {
  static final long PERIOD_MILLIS = 5;
  private static final long NAP_AFTER_NANOS = 1_000_000_000L;

  private final DataOutputStream out;
  private final Thread thread;
  private final Object wake = new Object();
  /** The running job, or -1; changed under {@code out}'s lock. */
  private volatile long job = -1;
  private volatile int done;
  private volatile boolean napping = true;
  private int sent;

  ProgressReporter(DataOutputStream out) {
    this.out = out;
    thread = new Thread(this::loop, "joblib4j-worker-progress");
    thread.setDaemon(true);
    thread.start();
  }

  /** The worker's loop is over (a Spark task runs one per call): the thread ends. */
  void stop() {
    thread.interrupt();
  }

  /** A batch begins: buffers its STARTED frame; wakes the reporter only if it naps. */
  void begin(long jobId) throws IOException {
    synchronized (out) {
      Frames.writeHeader(out, 8, Frames.STARTED);
      out.writeLong(jobId);
      done = 0;
      sent = 0;
      job = jobId;
    }
    if (napping) {
      synchronized (wake) {
        napping = false;
        wake.notifyAll();
      }
    }
  }

  /** Called by the batch after each finished task. */
  void taskDone(int tasksDone) {
    done = tasksDone;
  }

  /** The batch ended; the caller holds {@code out}'s lock and writes the outcome next. */
  void end() {
    job = -1;
  }

  private void loop() {
    long lastWork = System.nanoTime();
    try {
      while (true) {
        synchronized (wake) {
          while (napping) {
            wake.wait();
          }
        }
        Thread.sleep(PERIOD_MILLIS);
        synchronized (out) {
          long j = job;
          if (j < 0) {
            if (System.nanoTime() - lastWork > NAP_AFTER_NANOS) {
              napping = true; // set under out's lock: begin() then sees it and wakes us
            }
            continue;
          }
          lastWork = System.nanoTime();
          int d = done;
          if (d != sent) {
            Frames.writeHeader(out, 12, Frames.PROGRESS);
            out.writeLong(j);
            out.writeInt(d);
            sent = d;
          }
          out.flush(); // also sends STARTED
        }
      }
    } catch (InterruptedException | IOException e) {
      // the worker is exiting or the parent is gone; the main loop deals with it
    }
  }
}
