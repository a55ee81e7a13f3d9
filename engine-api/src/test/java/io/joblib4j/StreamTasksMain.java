package io.joblib4j;

import static io.joblib4j.Delayed.delayed;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.stream.LongStream;

/**
 * A JVM for {@link StreamedTasksHeapIT}: streams {@code n} tiny tasks ({@code x -> x + 1}) from a
 * lazy stream through {@code iterate()} (or {@code iterateUnordered()}) on a backend with two
 * jobs and auto batching, reads every result, and prints the heap still in use after a full GC at
 * every tenth of the way ({@code RETAINED <consumed> <bytes>}), then {@code DONE <count> <sum>
 * <millis>}. Run with a small {@code -Xmx}: a parent whose heap grows with the
 * number of tasks dies of OutOfMemoryError (exit code 3).
 *
 * <p>Arguments: backend name, number of tasks, {@code ordered} or {@code unordered}.
 */
public final class StreamTasksMain {
  private StreamTasksMain() {}

  static long increment(long x) {
    return x + 1;
  }

  public static void main(String[] args) {
    String backend = args[0];
    long n = Long.parseLong(args[1]);
    boolean ordered = args.length < 3 || args[2].equals("ordered");
    try {
      run(backend, n, ordered);
    } catch (OutOfMemoryError e) {
      System.out.println("OOM " + e.getMessage());
      System.out.flush();
      Runtime.getRuntime().halt(3);
    }
  }

  private static void run(String backend, long n, boolean ordered) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long start = System.nanoTime();
    long count = 0;
    long sum = 0;
    // the workers' heap is capped too: a batch must fit in them as well
    try (io.joblib4j.spi.Backend b = backend.equals("processes") ? Processes.builder().heap("256m").build()
             : io.joblib4j.spi.Backends.create(backend, java.util.Map.of());
         Parallel p = Parallel.builder().backend(b).nJobs(2).build();
         ResultIterator<Long> results = ordered
             ? p.iterate(LongStream.range(0, n).mapToObj(i -> delayed(StreamTasksMain::increment, i)))
             : p.iterateUnordered(LongStream.range(0, n).mapToObj(i -> delayed(StreamTasksMain::increment, i)))) {
      while (results.hasNext()) {
        long r = results.next();
        if (ordered && r != count + 1) {
          throw new IllegalStateException("result " + count + " is " + r + ", expected " + (count + 1));
        }
        sum += r;
        count++;
        if (count % (n / 10) == 0 && count < n) {
          System.gc();
          System.out.println("RETAINED " + count + " " + memory.getHeapMemoryUsage().getUsed());
          System.out.flush();
        }
      }
    }
    System.out.println("DONE " + count + " " + sum + " " + (System.nanoTime() - start) / 1_000_000);
  }
}
