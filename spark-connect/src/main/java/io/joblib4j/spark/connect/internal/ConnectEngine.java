package io.joblib4j.spark.connect.internal;

import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.BackendTraits;
import io.joblib4j.spi.Batching;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.support.ByteSizes;
import io.joblib4j.spi.worker.BatchCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import scala.Option;

/**
 * What {@code SparkConnectBackend} does, kept out of the public package: checks the session and
 * the options, gives the server joblib4j's jars (and the application's) once, sizes {@code
 * nJobs(-1)} to the server's parallelism, and starts each call as a {@link ConnectCall}.
 */
public final class ConnectEngine implements AutoCloseable {
  /** Workers in other JVMs whose progress arrives with each batch's result. */
  static final BackendTraits TRAITS = new BackendTraits(false, false, true, false, -1);
  static final Set<String> OPTIONS = Set.of("jars", "slots", "maxResultSize", "shareBelow");

  private final SparkSession session;
  private final UserCode code;
  private final int slotsOption;
  private final long maxResultBytes;
  private final Set<BackendCall> calls = ConcurrentHashMap.newKeySet();
  private final RecentOperations recent;
  private final ExecutorService pool;
  private volatile int slots;
  private boolean closed;

  /**
   * An engine on {@code session}.
   *
   * @param session a Spark Connect session
   * @param options {@code jars}, {@code slots}, {@code maxResultSize}, {@code shareBelow}
   * @throws IllegalArgumentException for a classic session, an unknown option or a bad value
   */
  public ConnectEngine(SparkSession session, Map<String, Object> options) {
    ConnectClientVersion.requireSupported();
    if (!ConnectSessions.isConnect(session)) {
      throw new IllegalArgumentException("SparkConnectBackend runs on a Spark Connect session; "
          + session.getClass().getName() + " is a classic session: use new SparkBackend(session)");
    }
    for (String key : options.keySet()) {
      if (!OPTIONS.contains(key)) {
        throw new IllegalArgumentException("unknown option \"" + key + "\" of the spark backend on Spark Connect;"
            + " known: " + String.join(", ", OPTIONS.stream().sorted().toList()));
      }
    }
    this.session = session;
    this.code = new UserCode(session);
    ConnectArtifacts.joblib4jCode().forEach(code::note);
    for (Path jar : paths(options.get("jars"))) {
      if (!java.nio.file.Files.exists(jar)) {
        throw new IllegalArgumentException("option jars names " + jar + ", which does not exist");
      }
      code.note(new CodeLocation(java.nio.file.Files.isDirectory(jar) ? CodeLocation.Kind.FOLDER
          : CodeLocation.Kind.JAR, jar.toAbsolutePath().normalize()));
    }
    this.slotsOption = options.containsKey("slots") ? positive("slots", options.get("slots")) : 0;
    this.maxResultBytes = options.containsKey("maxResultSize")
        ? ByteSizes.parse(String.valueOf(options.get("maxResultSize"))) : 0;
    this.recent = new RecentOperations(options.containsKey("shareBelow")
        ? nanos("shareBelow", options.get("shareBelow")) : RecentOperations.SHARE_BELOW_NANOS);
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "joblib4j-connect-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The active (or default) Spark Connect session of this thread.
   *
   * @return the session
   * @throws IllegalStateException if there is none, saying how to make one
   */
  public static SparkSession activeSession() {
    ConnectClientVersion.requireSupported();
    Option<? extends SparkSession> s = ConnectSessions.active();
    if (s.isEmpty()) {
      s = ConnectSessions.defaultSession();
    }
    if (s.isEmpty()) {
      throw new IllegalStateException("backend(\"spark\") on Spark Connect needs a session, and this thread has"
          + " no active or default one: create it before the call (SparkSession.builder().remote(\"sc://host:15002\")"
          + ".getOrCreate()), pass it with backend(new SparkBackend(spark)), or run locally with backend(\"threads\")");
    }
    return s.get();
  }

  /**
   * The session.
   *
   * @return the Connect session
   */
  public SparkSession session() {
    return session;
  }

  /**
   * The traits: other JVMs, progress per batch.
   *
   * @return the traits
   */
  public BackendTraits traits() {
    return TRAITS;
  }

  /**
   * What {@code nJobs(-1)} means: the {@code slots} option, else the server's default parallelism (the
   * partitions of a range; the client cannot read the cluster's task slots), asked once.
   *
   * @return the number of workers, at least 1
   */
  public int capacity() {
    if (slotsOption > 0) {
      return slotsOption;
    }
    int s = slots;
    if (s == 0) {
      // the partition id is not deterministic, so it is projected before it is aggregated
      Row max = session.range(0, 1 << 16).select(functions.spark_partition_id().as("p"))
          .agg(functions.max("p")).first();
      s = Math.max(1, (max.isNullAt(0) ? 0 : max.getInt(0)) + 1);
      slots = s;
    }
    return s;
  }

  /**
   * One batch per slot, all sent at once, for an input of known size: every batch is a Connect
   * operation (plan, analysis, a Spark job), an overhead adaptive batching cannot amortize.
   *
   * @return {@link Batching#ONE_PER_WORKER}
   */
  public Batching batching() {
    return Batching.ONE_PER_WORKER;
  }

  /**
   * Starts a call.
   *
   * @param spec the call
   * @return the running call
   */
  public BackendCall startCall(CallSpec spec) {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("this spark backend is closed; build a new one");
      }
    }
    code.ship(); // joblib4j's own and the jars option's, once per session
    BatchCodec codec = BatchCodec.builder()
        .wireFormat(ConnectTask.WIRE_FORMAT)
        .classLoader(Thread.currentThread().getContextClassLoader())
        .refuseClasses(code::note) // refuses nothing: notes where each class's code is, to ship it
        .sharer(new ConnectSharer(session, spec.maxNbytes(), code))
        .destination("the Spark Connect server's executors")
        .classPathHint("The server loads classes from the session's artifacts: joblib4j adds the jars and class"
            + " folders of the classes it sends; add others with the backend option jars or session.addArtifact,"
            + " and for REPL code kept in memory register the REPL's class finder (session.registerClassFinder)")
        .build();
    byte[] initializer = null;
    if (spec.initializer() != null) {
      code.noteFunction(spec.initializer());
      initializer = codec.encodeInitializer(spec.initializer());
      code.ship();
    }
    ConnectCall[] self = new ConnectCall[1];
    ConnectCall call = new ConnectCall(session, spec, codec, initializer, new ConnectTask(spec.callId(), maxResultBytes),
        code::ship, pool, recent, () -> calls.remove(self[0]));
    self[0] = call;
    calls.add(call);
    return call;
  }

  /**
   * For {@code toString}: the session's id.
   *
   * @return a description
   */
  public String describe() {
    return "session " + ConnectSessions.id(session);
  }

  /** Cancels calls still running; the session stays open. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    for (BackendCall c : calls) {
      c.cancel();
      c.close();
    }
    pool.shutdown();
  }

  private static List<Path> paths(Object value) {
    List<Path> out = new ArrayList<>();
    if (value == null) {
      return out;
    }
    Collection<?> items = value instanceof Collection<?> c ? c : List.of(String.valueOf(value).split("[,"
        + java.io.File.pathSeparator + "]"));
    for (Object item : items) {
      String s = String.valueOf(item).trim();
      if (!s.isEmpty()) {
        out.add(item instanceof Path p ? p : Path.of(s));
      }
    }
    return out;
  }

  /** A duration option: a {@code Duration} or an ISO-8601 text such as {@code "PT2S"}, not negative. */
  private static long nanos(String key, Object value) {
    Duration d;
    try {
      d = value instanceof Duration given ? given : Duration.parse(String.valueOf(value).trim());
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("option " + key + " must be a Duration or an ISO-8601 duration such as"
          + " \"PT2S\", got \"" + value + "\"", e);
    }
    if (d.isNegative()) {
      throw new IllegalArgumentException("option " + key + " must not be negative, got " + d);
    }
    return d.toNanos();
  }

  private static int positive(String key, Object value) {
    try {
      int n = value instanceof Number num ? num.intValue() : Integer.parseInt(String.valueOf(value).trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException bad) {
      // reported below
    }
    throw new IllegalArgumentException("option " + key + " must be a positive number, got \"" + value + "\"");
  }
}
