package io.joblib4j.internal.processes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.lang.management.ManagementFactory;
import java.util.concurrent.locks.ReentrantLock;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The worker's side of {@link WorkerCds}: the recording worker dumps its class-data-sharing
 * archive once warm. A class of its own, light to load (no logging), as everything a worker loads
 * before its first result.
 */
final class CdsRecorder {
  /** The recording worker's environment: where to dump, where to publish, which lock to drop. */
  static final String RECORDING_VARIABLE = "JOBLIB4J_CDS_RECORDING";
  static final String ARCHIVE_VARIABLE = "JOBLIB4J_CDS_ARCHIVE";
  static final String LOCK_VARIABLE = "JOBLIB4J_CDS_LOCK";

  /** Released early when the worker is about to exit, so that the dump happens before it does. */
  private static final java.util.concurrent.CountDownLatch GO = new java.util.concurrent.CountDownLatch(1);
  private static volatile Thread dumper;
  /**
   * Held by the worker's loop while a batch's tasks run ({@code WorkerLoop.Builder#whileTasksRun}),
   * and by the dump: the dump stops the whole JVM at a safepoint (a tenth of a second here, more on
   * a loaded machine), which inside a task would count against the task's timeout. Fair, so that
   * a waiting dump goes before the next batch.
   */
  static final ReentrantLock WHILE_TASKS_RUN = new ReentrantLock(true);
  /** How long the dump waits for the JIT compilers to fall quiet before it gives up (no archive). */
  private static final long QUIET_WAIT_NANOS = 10_000_000_000L;

  private CdsRecorder() {}

  /**
   * Called before a worker exits normally (the parent said EXIT, e.g. because the parent is
   * exiting): a pending dump is done now, and waited for, so that a short program's only call
   * still leaves an archive.
   */
  static void finishBeforeExit() {
    Thread t = dumper;
    if (t != null) {
      GO.countDown();
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * In a worker, after its first batch: if it is the recorder (its environment says where), dumps
   * the classes it has loaded into the recording and renames that into the archive, atomically, so
   * that no JVM ever starts with half an archive; then drops the lock. In a thread of its own, when
   * no task runs ({@link #WHILE_TASKS_RUN}): the dump stops this JVM for a fraction of a second.
   */
  static void dumpIfRecorder() {
    String recording = System.getenv(RECORDING_VARIABLE);
    String archive = System.getenv(ARCHIVE_VARIABLE);
    String lock = System.getenv(LOCK_VARIABLE);
    if (recording == null || archive == null || lock == null) {
      return;
    }
    Thread t = new Thread(() -> {
      try {
        // called as the batch's tasks end, before its results are sent: lets them go first (the
        // archive is the same a moment later); not an ordering anything relies on
        GO.await(150, java.util.concurrent.TimeUnit.MILLISECONDS);
        if (dumpWhileNothingCompiles(recording)) {
          Files.move(Path.of(recording), Path.of(archive), StandardCopyOption.ATOMIC_MOVE);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception | LinkageError e) {
        // no archive this time: workers start without one, and the next JVM records again
      } finally {
        delete(recording);
        delete(lock);
      }
    }, "joblib4j-cds-dump");
    t.setDaemon(true);
    dumper = t;
    t.start();
  }

  /**
   * Dumps this JVM's classes into {@code recording} once no method it would archive has been queued
   * for compilation for a tenth of a second, none is queued or running, and no task runs ({@link
   * #WHILE_TASKS_RUN}); checks again after the dump. Java 17 archives a method queued for
   * compilation with its "queued" flag set (JDK-8306460, fixed in Java 21), and every JVM started
   * from that archive then runs the method interpreted, forever: a worker's 40 ms digest took 5 s.
   * A JVM dumps only once: if a compilation was queued during the dump after all, or the compilers
   * never fall quiet within {@link #QUIET_WAIT_NANOS}, there is no archive, and the next JVM records.
   *
   * @return whether {@code recording} holds a clean archive
   */
  private static boolean dumpWhileNothingCompiles(String recording) throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName commands = new ObjectName("com.sun.management:type=DiagnosticCommand");
    CompilerActivity.Counted archivable = CompilerActivity.Counted.archivable();
    long until = System.nanoTime() + QUIET_WAIT_NANOS;
    CompilerActivity last = CompilerActivity.of(server, commands, archivable);
    while (System.nanoTime() < until) {
      Thread.sleep(100);
      CompilerActivity now = CompilerActivity.of(server, commands, archivable);
      if (now.quiet() && now.equals(last)) {
        WHILE_TASKS_RUN.lockInterruptibly(); // between batches: the next one starts after the dump
        try {
          now = CompilerActivity.of(server, commands, archivable);
          if (now.equals(last)) {
            server.invoke(commands, "vmCds", new Object[] {new String[] {"dynamic_dump", recording}},
                new String[] {String[].class.getName()});
            return now.equals(CompilerActivity.of(server, commands, archivable))
                && Files.isRegularFile(Path.of(recording)) && Files.size(Path.of(recording)) > 0;
          }
        } finally {
          WHILE_TASKS_RUN.unlock();
        }
      }
      last = now;
    }
    return false;
  }

  private static void delete(String file) {
    try {
      Files.deleteIfExists(Path.of(file));
    } catch (IOException e) {
      // swept later (WorkerCds)
    }
  }
}
