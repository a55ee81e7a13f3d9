package io.joblib4j.benchmarks.lazymaps;

import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.nio.file.Path;

/**
 * One shot, in a JVM of its own: warms the JVM up on a small file (so that class loading and the
 * JIT are not what is measured), then maps the big file and scans it once, element by element.
 * Prints {@code MAP_MS}, {@code SCAN_MS} and the sum (so that the scan cannot be left out).
 *
 * <p>Arguments: the file, {@code verified} or {@code unverified}, the warm-up file.
 */
public final class LazyMapShot {
  private LazyMapShot() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]);
    boolean verified = args[1].equals("verified");
    LoadOptions options = LoadOptions.builder().mmapMode(MmapMode.READ_ONLY).verifyMappedData(verified).build();
    LoadOptions other = options.toBuilder().verifyMappedData(!verified).build();
    double warm = 0;
    for (int i = 0; i < 5; i++) {
      warm += scan(Joblib.load(Path.of(args[2]), options)) + scan(Joblib.load(Path.of(args[2]), other));
    }
    long start = System.nanoTime();
    NDArray a = Joblib.load(file, options);
    long mapped = System.nanoTime();
    double sum = scan(a);
    long scanned = System.nanoTime();
    System.out.printf("MAP_MS %.3f%nSCAN_MS %.1f%nSUM %s %s%n", (mapped - start) / 1e6, (scanned - mapped) / 1e6,
        sum, warm);
  }

  /** The first full sequential scan: what a user's loop over the array does. */
  static double scan(NDArray a) {
    double s = 0;
    long n = a.size();
    for (long i = 0; i < n; i++) {
      s += a.getDouble(i);
    }
    return s;
  }
}
