package io.joblib4j.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuCountTest {
  @TempDir Path cgroup;

  @Test
  void honoursACgroupV2QuotaRoundedUp() throws Exception {
    Files.writeString(cgroup.resolve("cpu.max"), "150000 100000\n");
    assertThat(CpuCount.compute(8, cgroup, null)).isEqualTo(2);
  }

  @Test
  void anUnlimitedCgroupV2QuotaLeavesTheVisibleCpus() throws Exception {
    Files.writeString(cgroup.resolve("cpu.max"), "max 100000\n");
    assertThat(CpuCount.compute(8, cgroup, null)).isEqualTo(8);
  }

  @Test
  void honoursACgroupV1Quota() throws Exception {
    Path v1 = Files.createDirectories(cgroup.resolve("cpu,cpuacct"));
    Files.writeString(v1.resolve("cpu.cfs_quota_us"), "300000\n");
    Files.writeString(v1.resolve("cpu.cfs_period_us"), "100000\n");
    assertThat(CpuCount.compute(8, cgroup, null)).isEqualTo(3);
    Files.writeString(v1.resolve("cpu.cfs_quota_us"), "-1\n");
    assertThat(CpuCount.compute(8, cgroup, null)).isEqualTo(8);
  }

  @Test
  void aQuotaAboveTheVisibleCpusDoesNotRaiseTheCount() throws Exception {
    Files.writeString(cgroup.resolve("cpu.max"), "1600000 100000\n");
    assertThat(CpuCount.compute(2, cgroup, null)).isEqualTo(2);
  }

  @Test
  void theUserCapLowersButNeverZeroes() {
    assertThat(CpuCount.compute(8, cgroup, "3")).isEqualTo(3);
    assertThat(CpuCount.compute(8, cgroup, "0")).isEqualTo(1);
    assertThat(CpuCount.compute(2, cgroup, "16")).isEqualTo(2);
    assertThatThrownBy(() -> CpuCount.compute(8, cgroup, "lots")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JOBLIB4J_MAX_CPU_COUNT");
  }

  @Test
  void theLiveCountIsPositiveAndAtMostWhatTheJvmSees() {
    assertThat(CpuCount.get()).isBetween(1, Runtime.getRuntime().availableProcessors());
  }

  /** The affinity mask: a JVM pinned to one CPU with taskset counts one. */
  @Test
  void honoursTheAffinityMaskOfTheProcess() throws Exception {
    assumeTrue(new File("/usr/bin/taskset").canExecute(), "taskset is not installed");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of("/usr/bin/taskset", "-c", "0", java, "-cp",
        System.getProperty("java.class.path"), PrintCpuCount.class.getName()))
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(out).endsWith("1");
  }

  /** Run in a child JVM by the affinity test. */
  public static final class PrintCpuCount {
    public static void main(String[] args) {
      System.out.println(CpuCount.get());
    }
  }
}
