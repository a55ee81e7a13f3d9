package io.joblib4j.internal.processes;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parent's side of one worker JVM, and the thread that owns it from start to death: it opens
 * a loopback port of its own, starts the process, accepts its connection, then reads its frames
 * until the connection ends, and finally works out how the worker died ({@link CrashDiagnosis})
 * and tells the pool. Death is noticed at once whatever the cause — the kernel closes a dead
 * process's socket — so nothing waits on a worker that is gone.
 *
 * <p>TCP on the loopback interface rather than a Unix socket: a JVM opening its first Unix socket
 * initializes {@code SecureRandom} and the security providers, which costs a new worker about 50
 * ms of CPU before it can say hello. The loopback port is open to every local user, so the worker
 * proves itself with a random token it got through its environment.
 *
 * <p>Fields marked "pool" are guarded by the owning {@link WorkerPool}'s lock.
 */
final class WorkerHandle implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkerHandle.class);

  enum State { STARTING, IDLE, BUSY, DEAD }

  final WorkerPool pool;
  final long token = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
  private final Thread thread;
  private final Object writeLock = new Object();
  private volatile Process process;
  private volatile ServerSocket server;
  private volatile Socket socket;
  private volatile OutputStream out;
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
  /** This worker records the class-data-sharing archive when it exits normally ({@link WorkerCds}). */
  volatile boolean recordsCds;

  // pool
  State state = State.STARTING;
  Job job;
  long idleSinceNanos;
  final Set<InitKey> initialized = new HashSet<>();

  WorkerHandle(WorkerPool pool) {
    this.pool = pool;
    this.thread = new Thread(this, "joblib4j-processes-worker-" + Long.toHexString(token));
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
      server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
      server.setSoTimeout((int) Math.min(Integer.MAX_VALUE, pool.key().startTimeout().toMillis()));
      launch();
      DataInputStream in = acceptWorker();
      connected = true;
      pool.workerConnected(this);
      readFrames(in);
    } catch (IOException e) {
      if (!connected) {
        startError = e;
      } else if (!Frames.isDisconnect(e) && !killed && !retiring) {
        LOG.warn("worker {} broke the protocol ({}); killing it", name(), e.toString());
      }
    } catch (RuntimeException | Error e) {
      LOG.error("joblib4j bug in the reader of worker {}", name(), e);
    } finally {
      died();
    }
  }

  private void launch() throws IOException {
    LaunchSpec spec = pool.key().launch();
    int budget = pool.key().threadBudget();
    WorkerCds.Plan cds = WorkerCds.plan(spec, token);
    ProcessBuilder pb = new ProcessBuilder(spec.command(budget, server.getInetAddress().getHostAddress(),
        server.getLocalPort(), WorkerPools::scratchDir, cds.options()));
    Map<String, String> env = spec.environment(budget, pb.environment());
    pb.environment().clear();
    pb.environment().putAll(env);
    // in the environment, which only this user can read, not on the command line, which anyone can
    pb.environment().put(WorkerMain.TOKEN_VARIABLE, Long.toString(token));
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
   * Accepts the worker's connection: the first one that says HELLO with this worker's token.
   * Anyone on this machine can connect to a loopback port, so a connection without the token is
   * dropped, and one that says nothing is given a few seconds.
   */
  private DataInputStream acceptWorker() throws IOException {
    while (true) {
      Socket s = server.accept();
      try {
        s.setTcpNoDelay(true); // frames are small and a reply waits for each: no Nagle delays
        s.setSoTimeout(5000);
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
        if (readHello(in)) {
          s.setSoTimeout(0);
          socket = s;
          out = s.getOutputStream();
          closeServer();
          return in;
        }
      } catch (IOException e) {
        LOG.debug("dropped a connection that was not worker {}'s", Long.toHexString(token), e);
      }
      s.close();
    }
  }

  /** Reads HELLO; false if the connection does not carry this worker's token. */
  private boolean readHello(DataInputStream in) throws IOException {
    if (Frames.readType(in) != Frames.HELLO) {
      return false;
    }
    long t = in.readLong();
    long reportedPid = in.readLong();
    long heap = in.readLong();
    if (t != token) {
      return false;
    }
    pid = reportedPid;
    maxHeap = heap;
    return true;
  }

  private void readFrames(DataInputStream in) throws IOException {
    while (true) {
      byte type = Frames.readType(in);
      switch (type) {
        case Frames.STARTED -> pool.jobStarted(this, in.readLong());
        case Frames.PROGRESS -> {
          long id = in.readLong();
          pool.jobProgress(this, id, in.readInt());
        }
        case Frames.OUTCOME -> {
          long id = in.readLong();
          pool.jobOutcome(this, id, Frames.readBytes(in));
        }
        case Frames.FAILED -> {
          long id = in.readLong();
          byte kind = in.readByte();
          int task = in.readInt();
          String message = Frames.readString(in);
          pool.jobFailed(this, id, kind, task, message, Frames.readBytes(in));
        }
        case Frames.EXITING -> exitingNote = Frames.readString(in);
        default -> throw new StreamCorruptedException("unknown frame type " + type + " from worker " + name());
      }
    }
  }

  /** Sends a batch (and the initializer the worker has not run yet, or an empty array). */
  void send(Job job, byte[] init) throws IOException {
    byte[] b = job.bytes();
    ByteBuffer head = ByteBuffer.allocate(4 + 1 + 8 + 4);
    head.putInt(1 + 8 + 4 + init.length + 4 + b.length).put(Frames.BATCH).putLong(job.id()).putInt(init.length);
    byte[] mid = ByteBuffer.allocate(4).putInt(b.length).array();
    write(head.array(), init, mid, b);
  }

  void sendRelease(String callId) throws IOException {
    byte[] id = Frames.utf8(callId);
    write(ByteBuffer.allocate(4 + 1 + 4).putInt(1 + 4 + id.length).put(Frames.RELEASE).putInt(id.length).array(), id);
  }

  private void write(byte[]... parts) throws IOException {
    OutputStream o = out;
    if (o == null) {
      throw new IOException("worker " + name() + " is not connected");
    }
    synchronized (writeLock) {
      if (parts.length > 1 && parts[0].length + parts[1].length < 512) {
        // header and a short body in one segment
        byte[] first = new byte[parts[0].length + parts[1].length];
        System.arraycopy(parts[0], 0, first, 0, parts[0].length);
        System.arraycopy(parts[1], 0, first, parts[0].length, parts[1].length);
        o.write(first);
        for (int i = 2; i < parts.length; i++) {
          o.write(parts[i]);
        }
      } else {
        for (byte[] p : parts) {
          o.write(p);
        }
      }
      o.flush();
    }
  }

  /** Kills the process now (SIGKILL); its reader then reports the death as expected. */
  void kill() {
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
    }
    closeServer();
  }

  /** Asks the worker to exit, and kills it if it has not after a few seconds. */
  void shutdown() {
    if (out == null) {
      kill();
      return;
    }
    try {
      write(ByteBuffer.allocate(5).putInt(1).put(Frames.SHUTDOWN).array());
      WorkerPools.schedule(this::kill, 10_000);
    } catch (IOException e) {
      kill();
    }
  }

  /** The process, for tests and for the JVM exit hook. */
  Process process() {
    return process;
  }

  private void closeServerIfNotConnected() {
    if (socket == null) {
      closeServer();
    }
  }

  private void closeServer() {
    ServerSocket s = server;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // nothing to do
      }
    }
  }

  private void died() {
    Socket s = socket;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // already gone
      }
    }
    closeServer();
    int code = -1;
    Process p = process;
    if (p != null) {
      code = awaitExit(p);
      stdout.awaitEnd(1000);
      stderr.awaitEnd(1000);
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
