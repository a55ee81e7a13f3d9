package io.joblib4j.spark.internal;

import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.Warnings;
import io.joblib4j.spi.worker.BatchCodec;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code io.joblib4j.spark.SparkBackend} does, kept out of the public package: sizing calls
 * to the cluster's task slots, and starting each call as one Spark job of pulling workers.
 */
public final class SparkEngine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SparkEngine.class);

  private final SparkContext sc;
  private final JavaSparkContext jsc;
  private final SparkJoblibConf conf;
  private final Set<SparkCall> calls = ConcurrentHashMap.newKeySet();
  private boolean closed;

  /** @param options backend options ({@code driver.port}, ...), over the {@code spark.joblib.*} settings */
  public SparkEngine(SparkContext sc, Map<String, Object> options) {
    SparkVersion.requireSupported();
    this.sc = sc;
    this.jsc = JavaSparkContext.fromSparkContext(sc);
    this.conf = SparkJoblibConf.from(sc.getConf(), options);
  }

  /** The SparkContext of the active session (Spark Connect refused), for {@code backend("spark")}. */
  public static SparkContext currentContext() {
    return SparkSessions.current();
  }

  public SparkContext sparkContext() {
    return sc;
  }

  /** Task slots now; with no executor yet (dynamic allocation), a starting size Spark scales up to. */
  public int capacity() {
    int live = TaskSlots.live(sc);
    if (live > 0) {
      return live;
    }
    int start = TaskSlots.startingSize(sc);
    LOG.info("joblib4j: Spark has no executor yet; starting {} workers and letting Spark add executors", start);
    return start;
  }

  /** joblib's rule for negatives; a positive count beyond the live slots is allowed, with a warning. */
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

  public BackendCall startCall(CallSpec spec) {
    if (sc.isStopped()) {
      throw new IllegalStateException("the SparkContext of this spark backend was stopped; build a new"
          + " SparkBackend on a running SparkSession");
    }
    DriverChannel ch = channel();
    ArgumentSharing sharing = new ArgumentSharing(spec.maxNbytes(), ArgumentSharing.BY_CONTENT,
        value -> jsc.broadcast((Object) new BroadcastHolder(value)));
    BatchCodec codec = BatchCodec.builder()
        .wireFormat(ExecutorWorker.WIRE_FORMAT)
        .classLoader(Thread.currentThread().getContextClassLoader())
        .sharer(sharing)
        .destination("Spark executors")
        .classPathHint("Executors load classes from the application's jars: ship them with --jars,"
            + " --packages or spark.jars")
        .build();
    byte[] initializer = spec.initializer() == null ? null : codec.encodeInitializer(spec.initializer());
    SparkCall[] self = new SparkCall[1];
    SparkCall call = new SparkCall(jsc, spec, ch, codec, initializer, () -> calls.remove(self[0]));
    self[0] = call;
    LongAccumulator done = sc.longAccumulator("joblib4j tasks done: " + spec.description());
    ExecutorWorker worker = new ExecutorWorker(ch.host(), ch.port(), spec.callId(), call.token(),
        conf.maxResultBytes(), done);
    calls.add(call);
    call.start(worker, "joblib4j Parallel: " + spec.description() + " (" + spec.nJobs()
        + " workers, " + spec.callId() + ")");
    return call;
  }

  private synchronized DriverChannel channel() {
    if (closed) {
      throw new IllegalStateException("this spark backend is closed; build a new one");
    }
    return DriverChannel.forContext(sc, conf);
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
    for (SparkCall c : calls) {
      c.cancel();
      c.close();
    }
  }
}
