package io.joblib4j.spark.internal;

import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.Warnings;
import io.joblib4j.spi.worker.BatchCodec;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code io.joblib4j.spark.SparkBackend} does, kept out of the public package: sizing calls
 * to the cluster's task slots, and starting each call as one Spark job of workers that pull
 * batches over the driver's channel ({@link SparkCall}) — or, when executors cannot reach the
 * driver or {@code spark.joblib4j.channel=job} says so, as a Spark job per batch ({@link
 * JobPathCall}).
 */
public final class SparkEngine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SparkEngine.class);
  private static final BackendTraits TASK_PROGRESS = BackendTraits.otherJvms(-1);
  private static final BackendTraits BATCH_PROGRESS = new BackendTraits(false, false, true, false, -1);

  private final SparkContext sc;
  private final JavaSparkContext jsc;
  private final SparkJoblibConf conf;
  private final Set<BackendCall> calls = ConcurrentHashMap.newKeySet();
  private volatile DriverChannel openChannel;
  private boolean closed;

  /**
   * An engine on {@code sc}.
   *
   * @param sc the SparkContext whose executors run the tasks
   * @param options backend options ({@code driver.port}, ...), over the {@code spark.joblib4j.*} settings
   * @throws IllegalArgumentException for an unknown option or a bad value, naming it
   */
  public SparkEngine(SparkContext sc, Map<String, Object> options) {
    SparkVersion.requireSupported();
    this.sc = sc;
    this.jsc = JavaSparkContext.fromSparkContext(sc);
    this.conf = SparkJoblibConf.from(sc.getConf(), options);
  }

  /**
   * The SparkContext of the active session (Spark Connect refused), for {@code backend("spark")}.
   *
   * @return the running context
   * @throws IllegalStateException if no Spark runs in this JVM and none can start, saying what to do
   */
  public static SparkContext currentContext() {
    return SparkSessions.current();
  }

  /**
   * The context this engine runs on.
   *
   * @return the SparkContext
   */
  public SparkContext sparkContext() {
    return sc;
  }

  /**
   * Task slots now; with no executor yet (dynamic allocation), a starting size Spark scales up to.
   *
   * @return the number of workers {@code nJobs(-1)} means
   */
  public int capacity() {
    int live = TaskSlots.live(sc);
    if (live > 0) {
      return live;
    }
    int start = TaskSlots.startingSize(sc);
    LOG.info("joblib4j: Spark has no executor yet; starting {} workers and letting Spark add executors", start);
    return start;
  }

  /**
   * joblib's rule for negatives; a positive count beyond the live slots is allowed, with a warning.
   *
   * @param nJobs what the user asked for
   * @return the number of workers
   */
  public int effectiveNJobs(int nJobs) {
    if (nJobs == 0) {
      throw new IllegalArgumentException("nJobs == 0 has no meaning");
    }
    if (nJobs < 0) {
      return Math.max(capacity() + 1 + nJobs, 1);
    }
    int live = TaskSlots.live(sc);
    if (nJobs > live) {
      Warnings.warn(SparkEngine.class, "nJobs(" + nJobs + ") asks for more workers than the " + live
          + " task slots Spark has now (executor cores / spark.task.cpus): the extra workers wait for"
          + " a free slot, or for dynamic allocation to add executors. nJobs(-1) uses exactly the"
          + " slots there are.");
    }
    return nJobs;
  }

  /**
   * What the core may assume: workers in other JVMs that report each task — except on the job
   * path, where a batch's progress arrives with its result.
   *
   * @return the traits, which change once the direct channel proves unreachable
   */
  public BackendTraits traits() {
    return onJobPath() ? BATCH_PROGRESS : TASK_PROGRESS;
  }

  /** Whether calls run as Spark jobs: asked for, or the direct channel proved unreachable. */
  private boolean onJobPath() {
    DriverChannel ch = openChannel;
    return conf.channel() == ChannelMode.JOB || conf.channel() == ChannelMode.AUTO && ch != null
        && ch.unreachable() != null;
  }

  /**
   * Starts a call: on the direct channel, or on the job path.
   *
   * @param spec the call
   * @return the running call
   */
  public BackendCall startCall(CallSpec spec) {
    if (sc.isStopped()) {
      throw new IllegalStateException("the SparkContext of this spark backend was stopped; build a new"
          + " SparkBackend on a running SparkSession");
    }
    boolean jobPath = conf.channel() == ChannelMode.JOB;
    DriverChannel ch = channel(!jobPath);
    ArgumentSharing sharing = new ArgumentSharing(spec.maxNbytes(), ArgumentSharing.BY_CONTENT,
        value -> jsc.broadcast((Object) new BroadcastHolder(value)));
    BatchCodec codec = BatchCodec.builder()
        .wireFormat(ExecutorLoops.WIRE_FORMAT)
        .classLoader(Thread.currentThread().getContextClassLoader())
        .sharer(sharing)
        .destination("Spark executors")
        .classPathHint("Executors load classes from the application's jars: ship them with --jars,"
            + " --packages or spark.jars")
        .build();
    byte[] initializer = spec.initializer() == null ? null : codec.encodeInitializer(spec.initializer());
    String description = "joblib4j Parallel: " + spec.description() + " (" + spec.nJobs() + " workers, "
        + spec.callId() + ")";
    LongAccumulator done = sc.longAccumulator("joblib4j tasks done: " + spec.description());
    JobPathTask task = new JobPathTask(spec.callId(), conf.maxResultBytes(), done);
    LongFunction<JobPathCall> onJobPath = firstSeq -> new JobPathCall(jsc, spec, codec, initializer, task,
        description, firstSeq, () -> {});
    if (jobPath || conf.channel() == ChannelMode.AUTO && ch.unreachable() != null) {
      if (!jobPath) {
        LOG.info("joblib4j: {} runs its batches as Spark jobs: executors could not reach the driver ({})",
            spec.callId(), ch.unreachable());
      }
      JobPathCall[] self = new JobPathCall[1];
      JobPathCall call = new JobPathCall(jsc, spec, codec, initializer, task, description, 0,
          () -> calls.remove(self[0]));
      self[0] = call;
      calls.add(call);
      return call;
    }
    SparkCall[] self = new SparkCall[1];
    SparkCall call = new SparkCall(jsc, spec, ch, codec, initializer, conf.encrypt(),
        conf.channel() == ChannelMode.AUTO ? onJobPath : null, () -> calls.remove(self[0]));
    self[0] = call;
    ExecutorWorker worker = new ExecutorWorker(ch.host(), ch.port(), conf.connectTimeoutMillis(), spec.callId(),
        call.token(), call.key(), conf.maxResultBytes(), done);
    calls.add(call);
    call.start(worker, description);
    return call;
  }

  /** The channel executors connect to, opened if {@code needed}; refuses a closed backend. */
  private synchronized DriverChannel channel(boolean needed) {
    if (closed) {
      throw new IllegalStateException("this spark backend is closed; build a new one");
    }
    if (needed) {
      openChannel = DriverChannel.forContext(sc, conf);
    }
    return openChannel;
  }

  /**
   * Cancels calls still running. The listening socket is shared by every backend on the same
   * SparkContext and closes when the application ends, so a {@code Parallel} that is never
   * closed (a notebook cell) leaves nothing behind; Spark itself keeps running.
   */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    for (BackendCall c : calls) {
      c.cancel();
      c.close();
    }
  }
}
