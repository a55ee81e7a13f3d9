package io.joblib4j.internal.persist;

import io.joblib4j.Joblib;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JVM that loads a file while another of its threads goes about its work, holding 32 MiB and
 * allocating more: prints how the load ended and whether the bystander ever ran out of memory.
 * Run by {@link LoadHeapBoundIT} at -Xmx256m.
 */
public final class HeapBoundMain {
  private HeapBoundMain() {}

  public static void main(String[] args) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger bystanderOoms = new AtomicInteger();
    CountDownLatch working = new CountDownLatch(1);
    Thread bystander = new Thread(() -> {
      List<byte[]> held = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        held.add(new byte[1 << 20]);
      }
      working.countDown();
      while (!stop.get()) {
        try {
          held.set((int) (System.nanoTime() & 31), new byte[1 << 20]);
        } catch (OutOfMemoryError e) {
          bystanderOoms.incrementAndGet();
        }
      }
    }, "bystander");
    bystander.start();
    working.await();
    try {
      List<?> value = Joblib.load(Path.of(args[0]));
      System.out.println("LOADED " + value.size());
    } catch (OutOfMemoryError e) {
      System.out.println("LOAD_OOM " + e);
    } catch (RuntimeException e) {
      System.out.println("REFUSED " + e.getClass().getName() + ": " + e.getMessage().replace('\n', ' '));
    } finally {
      stop.set(true);
      bystander.join();
    }
    System.out.println("BYSTANDER_OOMS " + bystanderOoms.get());
  }
}
