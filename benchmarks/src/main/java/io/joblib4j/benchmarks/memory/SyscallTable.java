package io.joblib4j.benchmarks.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs {@link HitLoop} under {@code strace -c -f} once with N operations and once with none, for a
 * hit and for the plain read, and prints the difference per operation as a Markdown table by system
 * call: what one hit asks of the kernel beside what one {@code Files.readAllBytes} does. Whatever the
 * JVM does on its own (start, warm-up, JIT, GC) is in both runs and cancels out, up to noise.
 *
 * <p>Arguments: {@code disk} or {@code shm}; N (10,000 in BENCHMARKS.md). Needs {@code strace}.
 */
public final class SyscallTable {
  private SyscallTable() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    String folder = args[0];
    int n = Integer.parseInt(args[1]);
    Map<String, Double> hit = perOperation("hit", folder, n);
    Map<String, Double> read = perOperation("read", folder, n);
    TreeMap<String, double[]> rows = new TreeMap<>();
    hit.forEach((k, v) -> rows.computeIfAbsent(k, x -> new double[2])[0] = v);
    read.forEach((k, v) -> rows.computeIfAbsent(k, x -> new double[2])[1] = v);
    System.out.printf("| system call (%s) | per hit | per `Files.readAllBytes` |%n|---|---|---|%n", folder);
    double[] total = new double[2];
    for (Map.Entry<String, double[]> e : rows.entrySet()) {
      double[] v = e.getValue();
      if (Math.abs(v[0]) < 0.5 && Math.abs(v[1]) < 0.5) {
        continue; // under one call in two: the JVM's own threads (futex, JIT), not the operation
      }
      total[0] += v[0];
      total[1] += v[1];
      System.out.printf("| `%s` | %.1f | %.1f |%n", e.getKey(), v[0], v[1]);
    }
    System.out.printf("| **total** | **%.1f** | **%.1f** |%n", total[0], total[1]);
  }

  /** System calls by name per operation: (calls with N - calls with none) / N. */
  static Map<String, Double> perOperation(String mode, String folder, int n) throws IOException, InterruptedException {
    Map<String, Long> with = counts(mode, folder, n);
    Map<String, Long> without = counts(mode, folder, 0);
    Map<String, Double> out = new TreeMap<>();
    with.forEach((k, v) -> out.put(k, (v - without.getOrDefault(k, 0L)) / (double) n));
    without.forEach((k, v) -> out.putIfAbsent(k, -v / (double) n));
    return out;
  }

  private static Map<String, Long> counts(String mode, String folder, int n) throws IOException, InterruptedException {
    Path summary = Files.createTempFile("jl4j-strace", ".txt");
    try {
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> command = new ArrayList<>(List.of("strace", "-f", "-c", "-o", summary.toString(), java, "-cp",
          System.getProperty("java.class.path"), HitLoop.class.getName(), mode, folder, Integer.toString(n)));
      Process p = new ProcessBuilder(command).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IOException("strace or the loop failed: " + command);
      }
      return parse(Files.readAllLines(summary));
    } finally {
      Files.deleteIfExists(summary);
    }
  }

  /** The calls column of an {@code strace -c} summary, by system call name. */
  static Map<String, Long> parse(List<String> lines) {
    Map<String, Long> out = new TreeMap<>();
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      // % time, seconds, usecs/call, calls, [errors,] syscall
      if (f.length >= 5 && f[0].matches("[0-9.]+") && !f[f.length - 1].equals("total")) {
        out.put(f[f.length - 1], Long.parseLong(f[3]));
      }
    }
    return out;
  }
}
