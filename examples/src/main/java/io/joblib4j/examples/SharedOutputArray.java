package io.joblib4j.examples;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Filling one shared output array from child JVMs — the question joblib users keep asking ("a global
 * array is not shared between processes"; answer: a {@code np.memmap} opened {@code "w+"}).
 *
 * <p>{@code ab[0, i, j] = a[i] + b[j]} and {@code ab[1, i, j] = a[i] * b[j]} for a (2, N, M) array,
 * one task per row {@code i}. The array is memory-mapped READ_WRITE in this JVM; each worker JVM maps
 * the same file and writes its rows in place, and this JVM sees every write without anything being
 * sent back.
 *
 * <pre>
 * java -cp ... io.joblib4j.examples.SharedOutputArray            # 10,000 x 1,000, 2 workers
 * java -cp ... io.joblib4j.examples.SharedOutputArray 5 5 2      # N M nJobs: prints the array
 * </pre>
 */
public final class SharedOutputArray {
  private SharedOutputArray() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int m = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    int nJobs = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path file = Files.createTempFile(sharedMemoryOrTemp(), "ab-", ".f64");
    try (Parallel p = Parallel.builder().backend("processes").nJobs(nJobs).build();
         NDArray ab = NDArray.createMapped(file, DType.FLOAT64, 2, n, m)) {
      long t0 = System.nanoTime();
      fill(p, ab, range(n), range(m));
      long t1 = System.nanoTime();
      System.out.printf(Locale.ROOT, "filled a (2, %d, %d) array by rows on %d worker JVMs in %.0f ms%n", n, m, nJobs,
          (t1 - t0) / 1e6);
      print(ab, 5);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Fills {@code ab} (shape (2, a.length, b.length)) with one task per row on {@code parallel}. */
  public static void fill(Parallel parallel, NDArray ab, double[] a, double[] b) {
    parallel.run(IntStream.range(0, a.length).mapToObj(i -> delayed(SharedOutputArray::fillRow, i, a, b, ab)));
  }

  /** Row {@code i} of both planes: the seed's {@code func3}. Returns {@code i}. */
  public static int fillRow(int i, double[] a, double[] b, NDArray ab) {
    NDArray sums = ab.row(0).row(i);
    NDArray products = ab.row(1).row(i);
    for (int j = 0; j < b.length; j++) {
      sums.setDouble(a[i] + b[j], j);
      products.setDouble(a[i] * b[j], j);
    }
    return i;
  }

  /** {@code 0, 1, ..., n - 1}, as the seed's {@code a = [0, 1, 2, 3, 4]}. */
  public static double[] range(int n) {
    return IntStream.range(0, n).asDoubleStream().toArray();
  }

  private static void print(NDArray ab, int upTo) {
    for (int plane = 0; plane < 2; plane++) {
      System.out.println(plane == 0 ? "sums:" : "products:");
      for (int i = 0; i < Math.min(upTo, ab.shape(1)); i++) {
        StringBuilder row = new StringBuilder(" ");
        for (int j = 0; j < Math.min(upTo, ab.shape(2)); j++) {
          row.append(String.format(Locale.ROOT, " %5.1f", ab.getDouble(plane, i, j)));
        }
        System.out.println(row);
      }
    }
  }

  /** {@code /dev/shm} where it exists (no disk writes), else the temporary folder. */
  private static Path sharedMemoryOrTemp() {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
  }
}
