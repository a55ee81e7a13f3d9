package io.joblib4j.benchmarks.memory;

import io.joblib4j.MemoizedFn1;
import io.joblib4j.Memory;
import io.joblib4j.benchmarks.MemoryBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * N small hits of a Memory on the local store, or N {@code Files.readAllBytes} of the entry's
 * output file, after the same warm-up either way, so that {@code strace -c -f} over a run with N
 * and over one with none gives what one operation costs in system calls (see {@link
 * SyscallTable}). The entry is the {@code double[16]} of {@link MemoryBenchmark}.
 *
 * <p>Arguments: {@code hit} or {@code read}; {@code disk} (the system temp folder) or {@code shm}
 * (/dev/shm); N. Prints the mean time per operation and a checksum of what was read.
 */
public final class HitLoop {
  /** Warm-up operations before the counted ones: enough for the JIT to compile the loop. */
  static final int WARM_UP = 20_000;
  /**
   * How long the loop waits after storing the entry, doing nothing: longer than Memory waits before
   * it holds a new entry's bytes (a hit on an entry published a moment ago reads its file). Idle, so
   * that a run with N operations and one with none make the same system calls before the N.
   */
  static final long SETTLE_MILLIS = 3_000;

  private HitLoop() {}

  public static void main(String[] args) throws IOException {
    boolean hit = args[0].equals("hit");
    Path base = args[1].equals("shm") ? Path.of("/dev/shm") : Path.of(System.getProperty("java.io.tmpdir"));
    int n = Integer.parseInt(args[2]);
    Path dir = Files.createTempDirectory(base, "jl4j-hitloop");
    try {
      Memory memory = Memory.builder(dir).verbose(0).build();
      MemoizedFn1<Integer, double[]> small = memory.cache(MemoryBenchmark::smallResult);
      small.apply(1);
      Path output = outputFile(dir);
      double sum = 0;
      sleep(SETTLE_MILLIS);
      for (int i = 0; i < WARM_UP; i++) {
        sum += hit ? small.apply(1)[3] : Files.readAllBytes(output).length;
      }
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sum += hit ? small.apply(1)[3] : Files.readAllBytes(output).length;
      }
      long took = System.nanoTime() - start;
      System.out.printf("%s %s: %d operations, %.2f us each (checksum %s)%n", args[0], args[1], n,
          n == 0 ? 0.0 : took / 1e3 / n, sum);
    } finally {
      deleteTree(dir);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Path outputFile(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().equals("output.jl4j")).findFirst().orElseThrow();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
