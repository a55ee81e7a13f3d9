package io.joblib4j.internal.processes;

import io.joblib4j.Parallel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** What the processes tests share: building calls on the backend, and watching worker processes. */
final class Workers {
  private Workers() {}

  /** A Parallel on the shared processes pool (reused across tests, as in real use). */
  static Parallel processes(int nJobs) {
    return Parallel.builder().backend("processes").nJobs(nJobs).build();
  }

  /** A backend with options; {@code reuse=false} gives it workers of its own. */
  static ProcessesBackend backend(Map<String, Object> options) {
    return new ProcessesBackend(ProcessesOptions.parse(options));
  }

  static Parallel on(ProcessesBackend backend, int nJobs) {
    return Parallel.builder().backend(backend).nJobs(nJobs).build();
  }

  /** The pid of the JVM this runs in: the worker's, inside a task. */
  static long pid() {
    return ProcessHandle.current().pid();
  }

  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Waits until {@code pid} has exited; false if it is still alive after {@code within}. */
  static boolean awaitExit(long pid, Duration within) throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (alive(pid)) {
      if (System.nanoTime() > end) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** Inside a task: writes this worker's pid to {@code file}, so the test knows the task runs. */
  static void announce(String file) {
    try {
      Path tmp = Path.of(file + ".tmp");
      Files.writeString(tmp, Long.toString(pid()));
      Files.move(tmp, Path.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for a task to {@link #announce} itself and returns its worker's pid. */
  static long awaitAnnounced(Path file, Duration within) throws InterruptedException, IOException {
    long end = System.nanoTime() + within.toNanos();
    while (!Files.exists(file)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("no task announced itself in " + file + " within " + within);
      }
      Thread.sleep(2);
    }
    return Long.parseLong(Files.readString(file).trim());
  }

  /** Live child processes of this JVM. */
  static long childCount() {
    return ProcessHandle.current().children().filter(ProcessHandle::isAlive).count();
  }

  static Optional<ProcessHandle> handle(long pid) {
    return ProcessHandle.of(pid);
  }
}
