package io.joblib4j.benchmarks.lazymaps;

import io.joblib4j.Joblib;
import io.joblib4j.LoadOptions;
import io.joblib4j.MmapMode;
import io.joblib4j.array.NDArray;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The cost of the lazy checks on a scan, in one JVM: maps one file verified and unverified and
 * scans each in alternating rounds, so that both see the same machine load (this machine is
 * shared) and the same JIT. Each round maps both afresh, times their first scan (every block
 * checked on the way) and a second scan (every block already checked), in CPU time of the scanning
 * thread; the medians of the ratios verified / unverified and the fastest scans are printed. Put
 * the file on a RAM disk or keep it cached: this measures the accessor, not the disk ({@link
 * LazyMapHarness} measures the disk).
 *
 * <p>Arguments: a folder, the file's size in MiB, the number of rounds.
 */
public final class VerifiedScanRounds {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private VerifiedScanRounds() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    long mib = Long.parseLong(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Path file = dir.resolve("scan-rounds.jl4j");
    long n = (mib << 20) / 8;
    try (NDArray ramp = NDArray.zeros(io.joblib4j.array.DType.FLOAT64, n)) {
      for (long i = 0; i < n; i++) {
        ramp.setDouble(i * 0.5, i);
      }
      Joblib.dump(ramp, file);
    }
    LoadOptions verified = LoadOptions.builder().mmapMode(MmapMode.READ_ONLY).build();
    LoadOptions unverified = verified.toBuilder().verifyMappedData(false).build();
    double[] firstRatio = new double[rounds];
    double[] againRatio = new double[rounds];
    double[] vWall = new double[rounds];
    double[] uWall = new double[rounds];
    double[] vFirst = new double[rounds];
    double[] uFirst = new double[rounds];
    double[] vAgain = new double[rounds];
    double[] uAgain = new double[rounds];
    double sink = 0;
    System.out.println("| round (CPU ms) | first scan: verified | unverified | ratio | second scan: verified | unverified | ratio |");
    System.out.println("|---|---|---|---|---|---|---|");
    try {
      for (int r = 0; r < rounds; r++) {
        double[] v;
        double[] u;
        if (r % 2 == 0) { // which goes first alternates: the second may find the machine otherwise busy
          v = scanTwice(file, verified);
          u = scanTwice(file, unverified);
        } else {
          u = scanTwice(file, unverified);
          v = scanTwice(file, verified);
        }
        sink += v[2] + u[2];
        vWall[r] = v[3];
        uWall[r] = u[3];
        vFirst[r] = v[0];
        uFirst[r] = u[0];
        vAgain[r] = v[1];
        uAgain[r] = u[1];
        firstRatio[r] = v[0] / u[0];
        againRatio[r] = v[1] / u[1];
        System.out.printf(Locale.ROOT, "| %d | %.1f ms | %.1f ms | %.3f | %.1f ms | %.1f ms | %.3f |%n", r, v[0], u[0],
            firstRatio[r], v[1], u[1], againRatio[r]);
      }
      System.out.printf(Locale.ROOT, "median ratio verified / unverified: first scan %.3f, second scan %.3f%n",
          median(firstRatio), median(againRatio));
      // the fastest scan is the one least disturbed by the other processes of a shared machine
      System.out.printf(Locale.ROOT, "fastest first scan: verified %.1f ms, unverified %.1f ms (%.3f); fastest second scan:"
          + " verified %.1f ms, unverified %.1f ms (%.3f) (%s)%n", min(vFirst), min(uFirst), min(vFirst) / min(uFirst),
          min(vAgain), min(uAgain), min(vAgain) / min(uAgain), sink);
      System.out.printf(Locale.ROOT, "fastest first scan in wall time: verified %.1f ms, unverified %.1f ms (%.3f)%n",
          min(vWall), min(uWall), min(vWall) / min(uWall));
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (java.io.IOException e) {
        System.err.println("could not delete " + file + ": " + e);
      }
    }
  }

  /**
   * CPU milliseconds of the first and second full scans, their sum, and the first scan's wall
   * milliseconds. CPU time of the scanning thread: on a machine shared with other builds, wall time
   * mostly measures how long the thread waited for a core. But the scanning thread's CPU time
   * leaves out work done for it on other threads (blocks checked ahead), which wall time counts.
   */
  private static double[] scanTwice(Path file, LoadOptions options) {
    System.gc(); // unmaps the previous rounds' mappings, so that no round pays for them
    NDArray a = Joblib.load(file, options);
    long w0 = System.nanoTime();
    long t0 = CPU.getCurrentThreadCpuTime();
    double s = LazyMapShot.scan(a);
    long t1 = CPU.getCurrentThreadCpuTime();
    long w1 = System.nanoTime();
    s += LazyMapShot.scan(a);
    long t2 = CPU.getCurrentThreadCpuTime();
    return new double[] {(t1 - t0) / 1e6, (t2 - t1) / 1e6, s, (w1 - w0) / 1e6};
  }

  private static double min(double[] v) {
    return Arrays.stream(v).min().orElse(Double.NaN);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
