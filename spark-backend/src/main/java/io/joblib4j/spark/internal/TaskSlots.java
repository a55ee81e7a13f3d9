package io.joblib4j.spark.internal;

import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * How many tasks Spark can run at once right now, from public APIs only: executor cores divided
 * by {@code spark.task.cpus}. Under dynamic allocation this changes as executors come and go; with
 * no executor yet it is 0, and the caller picks a starting size and lets Spark scale up.
 */
final class TaskSlots {
  private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:,\\s*\\d+)?])?");

  private TaskSlots() {}

  /**
   * The task slots of the executors registered now, or, on a cluster of a fixed size, of the
   * executors asked for if more; 0 when there are none.
   */
  static int live(SparkContext sc) {
    SparkConf conf = sc.getConf();
    int taskCpus = Math.max(1, conf.getInt("spark.task.cpus", 1));
    // The block managers registered with the driver, its own among them. Not the status tracker's
    // executors: the listener bus fills those, and on a busy machine it lags seconds behind.
    int registered = sc.getExecutorMemoryStatus().size() - 1;
    return cores(conf, sc.master(), registered, sc::defaultParallelism) / taskCpus;
  }

  /**
   * The cores of the executors that count: those registered, or, with a fixed number of executors
   * ({@code spark.executor.instances} without dynamic allocation), the number asked for when fewer
   * have registered yet. Those are on their way (on a busy YARN cluster they register after the
   * driver stops waiting for them, 30 s by default), and a call sized by the first to arrive would
   * keep one worker after the others came.
   */
  static int cores(SparkConf conf, String master, int registered, IntSupplier defaultParallelism) {
    Matcher local = LOCAL.matcher(master.trim());
    if (local.matches()) {
      String n = local.group(1);
      return n == null ? 1 : n.equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(n);
    }
    int executors = Math.max(registered, fixedExecutors(conf));
    if (executors <= 0) {
      return 0;
    }
    if (conf.contains("spark.executor.cores")) {
      return executors * conf.getInt("spark.executor.cores", 1);
    }
    if (!conf.contains("spark.default.parallelism")) {
      // then Spark's default parallelism is the executors' total core count (at least 2)
      return Math.max(defaultParallelism.getAsInt(), executors);
    }
    return executors; // one core each is all the public API can tell
  }

  /** The executors a cluster of a fixed size asks for; 0 under dynamic allocation or when unsaid. */
  static int fixedExecutors(SparkConf conf) {
    if (conf.getBoolean("spark.dynamicAllocation.enabled", false)) {
      return 0;
    }
    return Math.max(0, conf.getInt("spark.executor.instances", 0));
  }

  /** The number of workers for {@code nJobs=-1} when no executor is registered yet. */
  static int startingSize(SparkContext sc) {
    int taskCpus = Math.max(1, sc.getConf().getInt("spark.task.cpus", 1));
    return Math.max(1, sc.defaultParallelism() / taskCpus);
  }
}
