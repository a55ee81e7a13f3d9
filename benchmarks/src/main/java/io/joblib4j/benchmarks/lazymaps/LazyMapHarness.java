package io.joblib4j.benchmarks.lazymaps;

import io.joblib4j.Joblib;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@code double} array of each size as a {@code .npy} and as a joblib4j dump, then for
 * the page cache dropped ({@code sync; echo 3 > /proc/sys/vm/drop_caches}, as root) and warm (the
 * file read once just before) measures the first map and first full scan of: the verified map, the
 * unverified map ({@code verifyMappedData(false)}), and numpy's {@code np.load(path,
 * mmap_mode='r')} with {@code a.sum()}. Each figure is one fresh process. The files are deleted
 * after each size, so the folder needs room for two files of the largest size only.
 *
 * <p>Arguments: a folder, the number of rounds, then sizes in GiB. The rounds run the three loads in
 * turn for each cache state (the machine is shared: one shot alone says little). Prints one
 * Markdown table row per figure and round, then the medians.
 */
public final class LazyMapHarness {
  private static final String NUMPY = String.join("\n",
      "import sys, time, numpy as np",
      "w = np.load(sys.argv[2], mmap_mode='r'); float(w.sum())",
      "t0 = time.perf_counter(); a = np.load(sys.argv[1], mmap_mode='r'); t1 = time.perf_counter()",
      "s = float(a.sum()); t2 = time.perf_counter()",
      "print('MAP_MS %.3f' % ((t1 - t0) * 1e3)); print('SCAN_MS %.1f' % ((t2 - t1) * 1e3)); print('SUM', s)");

  private LazyMapHarness() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Files.createDirectories(dir);
    Path warmNpy = dir.resolve("warm.npy");
    Path warmJl4j = dir.resolve("warm.jl4j");
    write(warmNpy, warmJl4j, 64L << 20);
    System.out.println("| size | page cache | load | first map (ms) | first full scan (ms) |");
    System.out.println("|---|---|---|---|---|");
    for (int k = 2; k < args.length; k++) {
      long gib = Long.parseLong(args[k]);
      Path npy = dir.resolve("a" + gib + ".npy");
      Path jl4j = dir.resolve("a" + gib + ".jl4j");
      long t0 = System.nanoTime();
      write(npy, jl4j, gib << 30);
      System.err.printf("wrote %d GiB twice in %.0f s%n", gib, (System.nanoTime() - t0) / 1e9);
      settle();
      try {
        for (String cache : new String[] {"dropped", "warm"}) {
          java.util.Map<String, List<double[]>> figures = new java.util.LinkedHashMap<>();
          for (int round = 0; round < rounds; round++) {
          for (String load : new String[] {"verified", "unverified", "numpy"}) {
            Path file = load.equals("numpy") ? npy : jl4j;
            if (cache.equals("dropped")) {
              dropCaches();
            } else {
              readOnce(file);
            }
            List<String> cmd = load.equals("numpy")
                ? List.of("python3", "-c", NUMPY, npy.toString(), warmNpy.toString())
                : javaShot(jl4j, load, warmJl4j);
            String out = run(cmd);
            System.out.printf(Locale.ROOT, "| %d GiB | %s | %s | %s | %s |%n", gib, cache, load, field(out, "MAP_MS"),
                field(out, "SCAN_MS"));
            figures.computeIfAbsent(load, x -> new ArrayList<>()).add(new double[] {
                Double.parseDouble(field(out, "MAP_MS")), Double.parseDouble(field(out, "SCAN_MS"))});
          }
          }
          for (var e : figures.entrySet()) {
            System.out.printf(Locale.ROOT, "| %d GiB | %s | %s | median %.3f | median %.1f |%n", gib, cache, e.getKey(),
                median(e.getValue(), 0), median(e.getValue(), 1));
          }
        }
      } finally {
        Files.deleteIfExists(npy);
        Files.deleteIfExists(jl4j);
      }
    }
    Files.deleteIfExists(warmNpy);
    Files.deleteIfExists(warmJl4j);
  }

  /** A .npy of {@code bytes} bytes of doubles (a ramp, written through a mapping), and its dump. */
  private static void write(Path npy, Path jl4j, long bytes) {
    try (NDArray a = NDArray.createMapped(npy, DType.FLOAT64, bytes / 8)) {
      for (long i = 0, n = bytes / 8; i < n; i++) {
        a.setDouble(i * 0.5, i);
      }
      a.force();
      Joblib.dump(a, jl4j);
    }
  }

  private static List<String> javaShot(Path file, String load, Path warm) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(LazyMapShot.class.getName());
    cmd.add(file.toString());
    cmd.add(load);
    cmd.add(warm.toString());
    return cmd;
  }

  /**
   * Waits until the files just written are on disk: the kernel writes gigabytes of dirty pages back
   * for a minute after the write returns, and the first shots used to run beside that writeback (in
   * one quiet run the first round's scans took up to 1.7x the last round's).
   */
  private static void settle() throws IOException, InterruptedException {
    run(List.of("sync"));
    for (int i = 0; i < 120 && dirtyKib() > 64 << 10; i++) {
      Thread.sleep(1000);
    }
  }

  private static long dirtyKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith("Dirty:") || line.startsWith("Writeback:")) {
        long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
        if (kib > 64 << 10) {
          return kib;
        }
      }
    }
    return 0;
  }

  private static void dropCaches() throws IOException, InterruptedException {
    run(List.of("sync"));
    Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "3");
  }

  /** Reads the file once, so that as much of it as fits is in the page cache. */
  private static void readOnce(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocateDirect(8 << 20);
      while (ch.read(b) > 0) {
        b.clear();
      }
    }
  }

  private static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(cmd.get(0) + " failed: " + out);
    }
    return out;
  }

  private static double median(List<double[]> rows, int column) {
    double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String field(String out, String name) {
    for (String line : out.split("\n")) {
      if (line.startsWith(name + " ")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new IllegalStateException("no " + name + " in " + out);
  }
}
