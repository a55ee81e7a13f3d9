package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WorkerLink;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parent's side of one worker JVM, and the thread that owns it from start to death: it opens
 * a socket of its own ({@link WorkerListener}), starts the process, accepts its connection ({@link WorkerLink}),
 * then reads its frames until the connection ends, and finally works out how the worker died
 * ({@link CrashDiagnosis}) and tells the pool. Death is noticed at once whatever the cause — the kernel closes a dead
 * process's socket — so nothing waits on a worker that is gone.
 *
 * <p>A Unix-domain socket in a folder only this user may enter, so that no other local user can
 * connect at all (loopback TCP where there are none); and the worker proves itself with a 256-bit
 * token it got through its environment ({@link WorkerTokens}), compared in constant time, before
 * anything else it sends is read. (A JVM's first Unix-domain socket initializes {@code
 * SecureRandom}, which costs a worker's start some 40 ms of CPU; safety first.)
 *
 * <p>Fields marked "pool" are guarded by the owning {@link WorkerPool}'s lock.
 */
final class WorkerHandle implements Runnable {
  private static final LazyLogger LOG = LazyLogger.of(WorkerHandle.class);
  /** A connection to the worker's port that has not said HELLO by then is dropped. */
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);

  enum State { STARTING, IDLE, BUSY, DEAD }

  private static final AtomicLong SERIALS = new AtomicLong();

  final WorkerPool pool;
  /** Names this worker's files and thread; not a secret. */
  final long serial = SERIALS.incrementAndGet();
  private final byte[] token = WorkerTokens.newToken();
  private final Thread thread;
  private volatile Process process;
  private volatile WorkerListener server;
  private volatile WorkerLink link;
  private volatile OutputPump stdout;
  private volatile OutputPump stderr;
  private volatile IOException startError;
  volatile long pid;
  volatile long maxHeap = -1;
  volatile boolean connected;
  volatile String exitingNote;
  /** Set (under the pool's lock) when the parent kills or retires it: its death is expected. */
  volatile boolean killed;
  volatile boolean retiring;
  /** This JVM ran out of memory reading what the worker sent: the worker's death is not its own. */
  volatile OutOfMemoryError parentOutOfMemory;
  /** This worker records the class-data-sharing archive when it exits normally ({@link WorkerCds}). */
  volatile boolean recordsCds;
  /** Another program started this worker and parked it; this one adopted it ({@link WarmWorkers}). */
  volatile boolean adopted;
  /**
   * Launched with a {@link WarmWorkers.Note}: it parks itself if this JVM ends while it is idle,
   * and may be parked at exit; others are not kept warm.
   */
  volatile boolean parksItself;
  /** Parked for the next program as this JVM exits: its end is not a death. */
  volatile boolean parkedAway;
  private final java.util.concurrent.CountDownLatch parkedAnswer = new java.util.concurrent.CountDownLatch(1);

  // pool
  State state = State.STARTING;
  Job job;
  long idleSinceNanos;

  WorkerHandle(WorkerPool pool) {
    this.pool = pool;
    this.thread = new Thread(this, "joblib4j-processes-worker-" + serial);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  String name() {
    return "process " + pid;
  }

  @Override
  public void run() {
    try {
      WorkerLink l = pool.key().keepsWarm() ? adoptParked() : null;
      if (l == null) {
        server = WorkerListener.open(WorkerPools.scratchDir(), "w-" + serial + ".sock");
        WorkerPools.schedule(this::closeServerIfNotConnected, pool.key().startTimeout().toMillis());
        launch();
        l = acceptWorker();
      }
      connected = true;
      pool.workerConnected(this);
      l.readFrames(new Reports());
    } catch (IOException e) {
      if (!connected) {
        startError = e;
      } else if (!WorkerLink.isDisconnect(e) && !killed && !retiring) {
        LOG.get().warn("worker {} broke the protocol ({}); killing it", name(), e.toString());
      }
    } catch (OutOfMemoryError e) {
      // this JVM's heap, not the worker's: the batch fails saying so, and the worker is replaced
      parentOutOfMemory = e;
      kill();
    } catch (RuntimeException | Error e) {
      LOG.get().error("joblib4j bug in the reader of worker {}", name(), e);
    } finally {
      died();
    }
  }

  private void launch() throws IOException {
    LaunchSpec spec = pool.key().launch().forNextWorker();
    int budget = pool.key().threadBudget();
    WorkerCds.Plan cds = WorkerCds.plan(spec, serial);
    ProcessBuilder pb = new ProcessBuilder(spec.command(budget, server.workerArguments(), WorkerPools::scratchDir,
        cds.options()));
    Map<String, String> env = spec.environment(budget, pb.environment());
    pb.environment().clear();
    pb.environment().putAll(env);
    // in the environment, which only this user can read, not on the command line, which anyone can
    pb.environment().put(WorkerMain.TOKEN_VARIABLE, WorkerTokens.encode(token));
    WorkerCds.VARIABLES.forEach(pb.environment()::remove); // inherited by a worker's own workers otherwise
    pb.environment().putAll(cds.environment());
    pb.environment().put(WorkerMain.RESULTS_VARIABLE, WorkerPools.resultsDir().toString());
    pb.environment().remove(WarmWorkers.PARK_VARIABLE);
    // only a worker on the class path as given: one started from a folder's content jar has the
    // folder's classes of that moment, which its parked self could not check against the folder
    WarmWorkers.Note note = pool.key().keepsWarm() && spec.classpath().equals(pool.key().launch().classpath())
        ? WarmWorkers.noteFor(pool.key()) : null;
    if (note != null) {
      pb.environment().put(WarmWorkers.PARK_VARIABLE, new String(note.encode(), java.nio.charset.StandardCharsets.UTF_8));
      parksItself = true;
    }
    Process p = pb.start();
    process = p;
    pid = p.pid();
    if (cds.records()) {
      recordsCds = true;
      WorkerCds.started(cds, pid);
      p.onExit().thenAccept(x -> WorkerCds.exited(cds, x.exitValue()));
    }
    stdout = new OutputPump(p.getInputStream(), () -> System.out, "joblib4j-worker-" + pid + "-stdout");
    stderr = new OutputPump(p.getErrorStream(), () -> System.err, "joblib4j-worker-" + pid + "-stderr");
    stdout.start();
    stderr.start();
    // a worker that dies before it connects must not leave accept() waiting for the start timeout
    p.onExit().thenRun(this::closeServerIfNotConnected);
    if (killed) {
      p.destroyForcibly();
    }
  }

  /**
   * Accepts the worker's connection: the first one that says HELLO with this worker's token (see
   * {@link WorkerListener#accept}).
   */
  private WorkerLink acceptWorker() throws IOException {
    WorkerLink l = server.accept(token, HANDSHAKE_TIMEOUT);
    pid = l.hello().pid();
    maxHeap = l.hello().maxHeapBytes();
    l.acceptSpilledResults(WorkerPools.resultsDir());
    link = l;
    closeServer();
    return l;
  }

  /** A worker another program parked for programs started as this pool's workers are, or null. */
  private WorkerLink adoptParked() {
    WorkerLink l = WarmWorkers.adopt(pool.key(), token, WorkerPools.resultsDir());
    if (l != null) {
      adopted = true;
      pid = l.hello().pid();
      maxHeap = l.hello().maxHeapBytes();
      l.acceptSpilledResults(WorkerPools.resultsDir());
      link = l;
    }
    return l;
  }

  /**
   * Parks this idle worker for the next program ({@link WarmWorkers}); true once it answered
   * within {@code waitMillis}, after which its connection's end is expected.
   */
  boolean park(WarmWorkers.Note note, long waitMillis) {
    try {
      connectedLink().sendPark(note.encode());
      return parkedAnswer.await(waitMillis, TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What the worker reports, handed to the pool. */
  private final class Reports implements WorkerLink.Events {
    @Override
    public void started(long job) {
      pool.jobStarted(WorkerHandle.this, job);
    }

    @Override
    public void progress(long job, int tasksDone) {
      pool.jobProgress(WorkerHandle.this, job, tasksDone);
    }

    @Override
    public void outcome(long job, byte[] results) {
      pool.jobOutcome(WorkerHandle.this, job, results);
    }

    @Override
    public void spilledOutcome(long job, java.nio.file.Path file, long bytes) {
      pool.jobSpilled(WorkerHandle.this, job, file, bytes);
    }

    @Override
    public void failed(long job, FailureReport report) {
      pool.jobFailed(WorkerHandle.this, job, report);
    }

    @Override
    public void exiting(String note) {
      exitingNote = note;
    }

    @Override
    public void output(int stream, byte[] bytes) {
      java.io.PrintStream to = stream == 1 ? System.out : System.err;
      to.write(bytes, 0, bytes.length);
      to.flush();
    }

    @Override
    public void parked() {
      parkedAway = true;
      parkedAnswer.countDown();
    }
  }

  /** Sends a batch, with the call's initializer until this worker has run it. */
  void send(Job job) throws IOException {
    connectedLink().sendBatch(job.id(), job.call().initializer(), job.bytes());
  }

  void sendRelease(String callId) throws IOException {
    connectedLink().sendRelease(callId);
  }

  private WorkerLink connectedLink() throws IOException {
    WorkerLink l = link;
    if (l == null) {
      throw new IOException("worker " + name() + " is not connected");
    }
    return l;
  }

  /** Kills the process now (SIGKILL); its reader then reports the death as expected. */
  void kill() {
    if (parkedAway) {
      return; // another program's to adopt now
    }
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
    } else if (adopted) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    closeServer();
  }

  /** Asks the worker to exit, and kills it if it has not after a few seconds. */
  void shutdown() {
    WorkerLink l = link;
    if (l == null) {
      kill();
      return;
    }
    l.sendExit();
    WorkerPools.schedule(this::kill, 10_000);
  }

  /** The process, for tests and for the JVM exit hook. */
  Process process() {
    return process;
  }

  private void closeServerIfNotConnected() {
    if (link == null) {
      closeServer();
    }
  }

  private void closeServer() {
    WorkerListener s = server;
    if (s != null) {
      s.close();
    }
  }

  private void died() {
    WorkerLink l = link;
    if (l != null) {
      l.close();
    }
    closeServer();
    int code = -1;
    Process p = process;
    if (p != null && !parkedAway) {
      code = awaitExit(p);
      stdout.awaitEnd(1000);
      stderr.awaitEnd(1000);
    } else if (adopted && !parkedAway) {
      awaitExit(ProcessHandle.of(pid));
    }
    String oom = stdout == null ? null : stdout.oomNotice() != null ? stdout.oomNotice() : stderr.oomNotice();
    String last = stderr == null ? "" : stderr.lastLines(6);
    if (last.isEmpty() && stdout != null && !connected) {
      last = stdout.lastLines(6);
    }
    if (startError != null && p == null) {
      last = startError.toString();
    }
    pool.workerDied(this, new CrashDiagnosis(pid, code, exitingNote, oom, last, maxHeap, connected));
  }

  /** An adopted worker is not this JVM's child: its exit code cannot be had, only its end. */
  private static void awaitExit(java.util.Optional<ProcessHandle> h) {
    if (h.isEmpty()) {
      return;
    }
    try {
      h.get().onExit().get(5, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      h.get().destroyForcibly(); // its socket closed but it lingers
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int awaitExit(Process p) {
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly(); // its socket closed but it lingers: a worker that is not ours to wait for
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
          return -1;
        }
      }
      return p.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  @Override
  public String toString() {
    return "worker " + name() + " " + state;
  }
}
