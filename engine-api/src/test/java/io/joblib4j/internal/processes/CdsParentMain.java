package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.Processes;
import io.joblib4j.spi.Backend;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * A parent JVM for {@link WorkerCdsIT}, run on a class path of jars only: one call on 1 worker,
 * printing the worker's JVM options; then either closes its own backend ({@code close}: the worker
 * exits normally at once) or just exits ({@code exit}: this JVM's exit asks the worker to leave);
 * {@code during} makes a second call at once, of one task that watches for the archive; {@code busy}
 * leaves the worker's JIT compilers busy as it exits ({@link HotMethods}), {@code compiled} asks a
 * worker how many of those methods it compiles, and {@code later} waits for the class path's folders
 * to be jarred in the background, then calls on 2 new workers and prints their class paths and options.
 */
public final class CdsParentMain {
  private CdsParentMain() {}

  /**
   * A task of 3 s in the recording worker, just after its first batch: whether the archive the
   * worker records existed as the task started and as it ended, and the longest step of a loop of
   * 5 ms sleeps.
   */
  static String archiveBeforeAndAfterATaskOfThreeSeconds() throws InterruptedException {
    java.nio.file.Path archive = java.nio.file.Path.of(System.getenv(CdsRecorder.ARCHIVE_VARIABLE));
    boolean before = java.nio.file.Files.exists(archive);
    long end = System.nanoTime() + 3_000_000_000L;
    long longest = 0;
    for (long last = System.nanoTime(); last < end; ) {
      Thread.sleep(5);
      long now = System.nanoTime();
      longest = Math.max(longest, now - last);
      last = now;
    }
    return "before=" + before + " after=" + java.nio.file.Files.exists(archive) + " longestStepMs=" + longest / 1_000_000;
  }

  /** In a worker: its JVM options, then {@code WORKER_CP} and its class path. */
  static String workerOptionsAndClassPath() {
    return String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()) + " WORKER_CP "
        + System.getProperty("java.class.path");
  }

  private static void awaitFoldersJarred() throws InterruptedException {
    for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      java.nio.file.Path folder = java.nio.file.Path.of(e);
      long until = System.nanoTime() + 60_000_000_000L;
      while (java.nio.file.Files.isDirectory(folder) && FolderJars.known(folder) == null && System.nanoTime() < until) {
        Thread.sleep(50);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    boolean close = args.length > 0 && args[0].equals("close");
    Backend b = Processes.builder().reuse(!close).build();
    Parallel p = Parallel.builder().backend(b).nJobs(1).build();
    boolean busy = args.length > 0 && args[0].equals("busy");
    String options = p.<String>run(List.of(delayed(() -> {
      if (busy) {
        HotMethods.keepTheCompilersBusy(); // this JVM exits, and the worker dumps, while they compile
      }
      return workerOptionsAndClassPath();
    }))).get(0);
    System.out.println("WORKER_OPTIONS " + options);
    if (args.length > 0 && args[0].equals("later")) {
      awaitFoldersJarred();
      try (Parallel two = Parallel.builder().backend(b).nJobs(2).build()) {
        // tasks long enough that both workers run one, so that the one recording the archive gets its batch
        List<io.joblib4j.Delayed<String>> tasks = java.util.stream.IntStream.range(0, 4).mapToObj(i -> delayed(() -> {
          Thread.sleep(400);
          return workerOptionsAndClassPath();
        })).toList();
        for (String w : two.run(tasks)) {
          System.out.println("LATER_WORKER_OPTIONS " + w);
        }
      }
    }
    if (args.length > 0 && args[0].equals("during")) {
      System.out.println("ARCHIVE " + p.<String>run(List.of(delayed(CdsParentMain::archiveBeforeAndAfterATaskOfThreeSeconds))).get(0));
    }
    if (args.length > 0 && args[0].equals("compiled")) {
      System.out.println("COMPILED " + p.<Integer>run(List.of(delayed(HotMethods::compiledAfterCallingEach))).get(0)
          + " of " + HotMethods.COUNT);
    }
    if (close) {
      List<ProcessHandle> workers = ProcessHandle.current().children().toList();
      b.close();
      for (ProcessHandle h : workers) {
        h.onExit().get();
      }
      Thread.sleep(200); // the archive is published when the worker's exit is seen
    }
    System.out.println("DONE");
  }
}
