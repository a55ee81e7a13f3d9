package io.joblib4j.internal.processes;

import static io.joblib4j.Delayed.delayed;

import io.joblib4j.Parallel;
import io.joblib4j.Processes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A short program for {@link WarmWorkersIT}: {@code <label> <keepWarm seconds> <mark> <linger ms>
 * [<workers> <tasks> <task ms>]}. Runs the tasks (4) on the workers (2) kept warm for that long, with
 * {@code WARM_MARK=<mark>} in the workers' environment; each task prints {@code TASK <label> <pid>}
 * and sleeps its time (0). Prints {@code PIDS <pid>...}, lingers (so that every worker connects and
 * parks), and exits. With a negative task time, the first task prints its pid and sleeps for ever.
 */
public final class WarmParentMain {
  private WarmParentMain() {}

  public static void main(String[] args) throws Exception {
    String label = args[0];
    int workers = args.length > 4 ? Integer.parseInt(args[4]) : 2;
    int tasks = args.length > 5 ? Integer.parseInt(args[5]) : 4;
    long taskMillis = args.length > 6 ? Long.parseLong(args[6]) : 0;
    try (Parallel p = Parallel.builder().nJobs(workers)
        .backend(Processes.builder().keepWarm(Duration.ofSeconds(Long.parseLong(args[1])))
            .env(Map.of("WARM_MARK", args[2])).build())
        .build()) {
      List<Long> pids = p.run(IntStream.range(0, tasks).mapToObj(i -> delayed(x -> {
        long pid = ProcessHandle.current().pid();
        System.out.println("TASK " + label + " " + pid);
        System.out.flush();
        Thread.sleep(taskMillis < 0 ? Long.MAX_VALUE : taskMillis);
        return pid;
      }, i)));
      System.out.println("PIDS " + pids.stream().distinct().map(String::valueOf).collect(Collectors.joining(" ")));
      Thread.sleep(Long.parseLong(args[3]));
    }
    System.out.println("DONE");
  }
}
