package io.joblib4j.internal.processes;

import io.joblib4j.Parallel;
import io.joblib4j.testing.Rendezvous;
import io.joblib4j.testing.Rendezvous.Gate;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What the processes tests share: building calls on the backend, and watching worker processes. */
final class Workers {
  private static Rendezvous rendezvous;

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
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (h.isEmpty()) {
      return true;
    }
    try {
      h.get().onExit().get(within.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new AssertionError(e);
    }
  }

  /** Where tasks in workers tell the test they run ({@link #announcing}); shared by the processes tests. */
  static synchronized Rendezvous rendezvous() {
    if (rendezvous == null) {
      rendezvous = Rendezvous.open();
    }
    return rendezvous;
  }

  /** A new gate at which a task announces the pid of its worker, for {@link #awaitAnnounced}. */
  static Gate announcing(String what) {
    return rendezvous().gate(what + "-" + java.util.UUID.randomUUID());
  }

  /** Inside a task: tells the test that the task runs, and in which worker. */
  static void announce(Gate gate) {
    gate.arrive(Long.toString(pid()));
  }

  /** Waits for a task to {@link #announce} itself and returns its worker's pid. */
  static long awaitAnnounced(Gate gate) {
    return Long.parseLong(rendezvous().awaitNote(gate.name()));
  }

  /** Live child processes of this JVM. */
  static long childCount() {
    return ProcessHandle.current().children().filter(ProcessHandle::isAlive).count();
  }

  static Optional<ProcessHandle> handle(long pid) {
    return ProcessHandle.of(pid);
  }
}
