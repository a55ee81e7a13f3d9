package io.joblib4j.internal.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Threads that keep cores busy beside a test, so that the code under test runs on an overloaded
 * machine as users' busy machines are. They stop when closed, or at the latest after a set time, so
 * that a test that fails or hangs does not leave them burning.
 */
final class CpuBurners implements AutoCloseable {
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stop;
  /** Read after the threads ended, so that the busy work is not optimized away. */
  private volatile long sink;

  private CpuBurners(int count, Duration atMost) {
    long until = System.nanoTime() + atMost.toNanos();
    for (int i = 0; i < count; i++) {
      long seed = i;
      Thread t = new Thread(() -> {
        long x = seed;
        while (!stop && System.nanoTime() - until < 0) {
          for (int n = 0; n < 100_000; n++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
          }
        }
        sink += x;
      }, "cpu-burner-" + i);
      t.setDaemon(true);
      threads.add(t);
    }
  }

  /** Starts {@code count} busy threads that stop when closed or after {@code atMost}. */
  static CpuBurners start(int count, Duration atMost) {
    CpuBurners b = new CpuBurners(count, atMost);
    b.threads.forEach(Thread::start);
    return b;
  }

  /** Twice as many busy threads as this machine has cores. */
  static int twicePerCore() {
    return 2 * Runtime.getRuntime().availableProcessors();
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join();
    }
  }
}
