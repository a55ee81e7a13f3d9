package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ten million tiny tasks streamed through {@code iterate()} in a caller JVM of 64 MiB: the caller's
 * heap must not grow with the number of tasks, on threads and on child-JVM processes alike.
 * Auto batching once grew batches without bound (millions of tasks taken from the input at once)
 * and died of OutOfMemoryError here.
 */
class StreamedTasksHeapIT {
  private static final long TASKS = 10_000_000L;
  /** How much the heap retained after a full GC may rise from the first third of the call to the last. */
  private static final long MAX_GROWTH = 12L << 20;

  @Test
  void tenMillionTasksStreamOnThreadsInA64MiBCaller() throws Exception {
    streamsInA64MiBCaller("threads", "ordered");
  }

  @Test
  void tenMillionTasksStreamUnorderedOnThreadsInA64MiBCaller() throws Exception {
    streamsInA64MiBCaller("threads", "unordered");
  }

  @Test
  void tenMillionTasksStreamOnProcessesInA64MiBCaller() throws Exception {
    streamsInA64MiBCaller("processes", "ordered");
  }

  private static void streamsInA64MiBCaller(String backend, String order) throws Exception {
    List<String> out = runChild(backend, order);
    String done = out.stream().filter(l -> l.startsWith("DONE ")).findFirst().orElse(null);
    assertThat(done).as("the caller finished; its output:\n%s", String.join("\n", out)).isNotNull();
    String[] d = done.split(" ");
    assertThat(Long.parseLong(d[1])).isEqualTo(TASKS);
    assertThat(Long.parseLong(d[2])).as("sum of x + 1").isEqualTo(TASKS * (TASKS + 1) / 2);
    List<Long> retained = out.stream().filter(l -> l.startsWith("RETAINED "))
        .map(l -> Long.parseLong(l.split(" ")[2])).toList();
    assertThat(retained).hasSize(9);
    // what is in flight varies by a few MiB from one moment to the next; the least of three
    // moments is the call's baseline, which must not rise from the first third to the last
    long early = retained.subList(0, 3).stream().min(Long::compare).orElseThrow();
    long late = retained.subList(6, 9).stream().min(Long::compare).orElseThrow();
    assertThat(late - early)
        .as("heap retained after 7-9M tasks beyond what was retained after 1-3M (%s)", retained)
        .isLessThan(MAX_GROWTH);
  }

  private static List<String> runChild(String backend, String order) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        StreamTasksMain.class.getName(), backend, Long.toString(TASKS), order)
        .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    List<String> lines = new ArrayList<>();
    Thread reader = new Thread(() -> {
      try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          synchronized (lines) {
            lines.add(line);
          }
        }
      } catch (IOException ignored) {
        // the child is gone; what it printed is kept
      }
    });
    reader.start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        lines.add("(killed after 120 s)");
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
      reader.join(10_000);
    }
    synchronized (lines) {
      List<String> copy = new ArrayList<>(lines);
      copy.add("(exit code " + (p.isAlive() ? "none" : p.exitValue()) + ")");
      return copy;
    }
  }
}
