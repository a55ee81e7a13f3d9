package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reliability matrix row 20: 10,000 tasks, each its own batch and round trip, over many calls
 * that also share arrays and fail now and then — and afterwards no more processes, threads, file
 * descriptors or temporary files than before.
 */
class SoakIT {
  static final int CALLS = 100;
  static final int TASKS_PER_CALL = 100;

  @Test
  @Timeout(240)
  void tenThousandTasksLeaveNoProcessesThreadsDescriptorsOrFilesBehind() throws Exception {
    try (Parallel p = Parallel.builder().backend("processes").nJobs(2).batchSize(1).maxNbytes(1024).build()) {
      round(p, 0); // warm up: workers started, classes loaded
      round(p, 1);
      Thread.sleep(200);
      Counts before = Counts.now();
      int done = 0;
      for (int call = 0; call < CALLS; call++) {
        done += round(p, call);
      }
      assertThat(done).isEqualTo(CALLS * TASKS_PER_CALL);
      Counts after = Counts.settled(before);
      assertThat(after.processes).as("child processes").isEqualTo(before.processes);
      assertThat(after.files).as("temporary files").isEqualTo(before.files);
      assertThat(after.descriptors).as("open file descriptors").isLessThanOrEqualTo(before.descriptors + 2);
      assertThat(after.threads).as("threads").isLessThanOrEqualTo(before.threads + 4);
    }
  }

  /** One call of {@value #TASKS_PER_CALL} tasks; every 10th shares an array, every 25th fails. */
  private static int round(Parallel p, int call) {
    if (call % 25 == 24) {
      assertThatThrownBy(() -> p.run(IntStream.range(0, TASKS_PER_CALL).mapToObj(i -> delayed(x -> {
        if (x == 50) {
          throw new IllegalStateException("planned failure");
        }
        return x;
      }, i)))).hasMessage("planned failure");
      return TASKS_PER_CALL;
    }
    if (call % 10 == 9) {
      long[] shared = new long[1000];
      return p.run(IntStream.range(0, TASKS_PER_CALL).mapToObj(i -> delayed((a, x) -> a.length + x, shared, i))).size();
    }
    return p.run(IntStream.range(0, TASKS_PER_CALL).mapToObj(i -> delayed(x -> x + 1, i))).size();
  }

  record Counts(long processes, long threads, long descriptors, long files) {
    static Counts now() throws IOException {
      long fds;
      try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
        fds = s.count();
      }
      long files = 0;
      for (Path base : List.of(TempFolders.baseFor(null), Path.of(System.getProperty("java.io.tmpdir")))) {
        try (Stream<Path> s = Files.walk(base, 3)) {
          files += s.filter(f -> f.toString().contains(TempFolders.ownPrefix()) && !f.toString().endsWith("-scratch")).count();
        } catch (IOException | java.io.UncheckedIOException e) {
          // a folder of someone else vanished during the walk
        }
      }
      return new Counts(Workers.childCount(), ManagementFactory.getThreadMXBean().getThreadCount(), fds, files);
    }

    /** The counts once replaced workers and finished threads have settled, at most a few seconds. */
    static Counts settled(Counts target) throws Exception {
      Counts c = now();
      for (int i = 0; i < 100 && (c.processes != target.processes || c.threads > target.threads
          || c.descriptors > target.descriptors || c.files != target.files); i++) {
        System.gc(); // the pool drops the kept files of arrays that were collected (PoolArrays)
        Thread.sleep(50);
        c = now();
      }
      return c;
    }
  }
}
