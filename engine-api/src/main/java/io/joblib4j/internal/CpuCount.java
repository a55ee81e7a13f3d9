package io.joblib4j.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * How many CPUs this JVM may really use: the smallest of the CPUs the JVM sees (which already
 * honours the affinity mask), the cgroup CPU quota (v2 {@code cpu.max}, v1 {@code
 * cpu.cfs_quota_us / cpu.cfs_period_us}, rounded up), and the {@code JOBLIB4J_MAX_CPU_COUNT}
 * environment variable or {@code joblib4j.maxCpuCount} system property — joblib's {@code
 * cpu_count()} rules, {@code LOKY_MAX_CPU_COUNT} included. Never less than 1.
 */
public final class CpuCount {
  private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
  private static volatile int cached;

  private CpuCount() {}

  /** The usable CPU count, computed once per JVM. */
  public static int get() {
    int n = cached;
    if (n == 0) {
      n = compute(Runtime.getRuntime().availableProcessors(), CGROUP_ROOT,
          System.getProperty("joblib4j.maxCpuCount", System.getenv("JOBLIB4J_MAX_CPU_COUNT")));
      cached = n;
    }
    return n;
  }

  /** The rule itself, with its inputs explicit so that tests can feed a fake cgroup tree. */
  static int compute(int visibleCpus, Path cgroupRoot, String userCap) {
    int n = Math.max(visibleCpus, 1);
    OptionalInt quota = cgroupQuota(cgroupRoot);
    if (quota.isPresent()) {
      n = Math.min(n, quota.getAsInt());
    }
    if (userCap != null && !userCap.isBlank()) {
      try {
        n = Math.min(n, Math.max(1, Integer.parseInt(userCap.trim())));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "JOBLIB4J_MAX_CPU_COUNT / joblib4j.maxCpuCount must be a whole number, got \"" + userCap + "\"", e);
      }
    }
    return Math.max(n, 1);
  }

  /** The CPU quota of this process's cgroup, rounded up, if it has one. */
  static OptionalInt cgroupQuota(Path root) {
    OptionalInt v2 = readCpuMax(root.resolve("cpu.max"));
    if (v2.isPresent()) {
      return v2;
    }
    for (String dir : List.of("cpu", "cpu,cpuacct", "cpuacct,cpu")) {
      Path quota = root.resolve(dir).resolve("cpu.cfs_quota_us");
      Path period = root.resolve(dir).resolve("cpu.cfs_period_us");
      if (Files.isReadable(quota) && Files.isReadable(period)) {
        try {
          long q = Long.parseLong(Files.readString(quota).trim());
          long p = Long.parseLong(Files.readString(period).trim());
          if (q > 0 && p > 0) {
            return OptionalInt.of((int) Math.max(1, (q + p - 1) / p));
          }
        } catch (IOException | NumberFormatException e) {
          return OptionalInt.empty();
        }
      }
    }
    return OptionalInt.empty();
  }

  /** Reads cgroup v2's {@code "<quota|max> <period>"}. */
  private static OptionalInt readCpuMax(Path file) {
    if (!Files.isReadable(file)) {
      return OptionalInt.empty();
    }
    try {
      String[] parts = Files.readString(file).trim().split("\\s+");
      if (parts.length != 2 || parts[0].equals("max")) {
        return OptionalInt.empty();
      }
      long q = Long.parseLong(parts[0]);
      long p = Long.parseLong(parts[1]);
      return q > 0 && p > 0 ? OptionalInt.of((int) Math.max(1, (q + p - 1) / p)) : OptionalInt.empty();
    } catch (IOException | NumberFormatException e) {
      return OptionalInt.empty();
    }
  }
}
