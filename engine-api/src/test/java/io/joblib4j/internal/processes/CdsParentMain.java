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
 * exits normally at once) or just exits ({@code exit}: this JVM's exit asks the worker to leave).
 */
public final class CdsParentMain {
  private CdsParentMain() {}

  public static void main(String[] args) throws Exception {
    boolean close = args.length > 0 && args[0].equals("close");
    Backend b = Processes.builder().reuse(!close).build();
    Parallel p = Parallel.builder().backend(b).nJobs(1).build();
    String options = p.<String>run(List.of(delayed(() ->
        String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())))).get(0);
    System.out.println("WORKER_OPTIONS " + options);
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
