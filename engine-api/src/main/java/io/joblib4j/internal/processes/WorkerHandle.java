package io.joblib4j.internal.processes;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parent's side of one worker JVM, and the thread that owns it from start to death: it binds a
 * private socket, starts the process, accepts its connection, then reads its frames until the
 * connection ends, and finally works out how the worker died ({@link CrashDiagnosis}) and tells
 * the pool. Death is noticed at once whatever the cause — the kernel closes a dead process's
 * socket — so nothing waits on a worker that is gone.
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
  private volatile ServerSocketChannel server;
  private volatile SocketChannel channel;
  private volatile Path socket;
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
      socket = WorkerPools.socketDir().resolve("w" + Long.toHexString(token) + ".sock");
      server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
      launch();
      SocketChannel ch = server.accept();
      channel = ch;
      closeServer();
      DataInputStream in = new DataInputStream(new BufferedInputStream(ChannelStreams.in(ch), 1 << 16));
      readHello(in);
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
    ProcessBuilder pb = new ProcessBuilder(spec.command(budget, socket, token, WorkerPools.socketDir(), cds.options()));
    Map<String, String> env = spec.environment(budget, pb.environment());
    pb.environment().clear();
    pb.environment().putAll(env);
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
    // a worker that dies or hangs before it connects must not leave accept() waiting forever
    p.onExit().thenRun(this::closeServerIfNotConnected);
    WorkerPools.schedule(this::closeServerIfNotConnected, pool.key().startTimeout().toMillis());
    if (killed) {
      p.destroyForcibly();
    }
  }

  private void readHello(DataInputStream in) throws IOException {
    if (Frames.readType(in) != Frames.HELLO) {
      throw new StreamCorruptedException("the worker did not start with HELLO");
    }
    long t = in.readLong();
    long reportedPid = in.readLong();
    maxHeap = in.readLong();
    if (t != token) {
      throw new StreamCorruptedException("a process connected with the wrong token");
    }
    pid = reportedPid;
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
    head.putInt(1 + 8 + 4 + init.length + 4 + b.length).put(Frames.BATCH).putLong(job.id()).putInt(init.length).flip();
    ByteBuffer mid = ByteBuffer.allocate(4).putInt(b.length).flip();
    write(head, ByteBuffer.wrap(init), mid, ByteBuffer.wrap(b));
  }

  void sendRelease(String callId) throws IOException {
    byte[] id = Frames.utf8(callId);
    ByteBuffer head = ByteBuffer.allocate(4 + 1 + 4);
    head.putInt(1 + 4 + id.length).put(Frames.RELEASE).putInt(id.length).flip();
    write(head, ByteBuffer.wrap(id));
  }

  private void write(ByteBuffer... buffers) throws IOException {
    SocketChannel ch = channel;
    if (ch == null) {
      throw new IOException("worker " + name() + " is not connected");
    }
    long total = 0;
    for (ByteBuffer b : buffers) {
      total += b.remaining();
    }
    synchronized (writeLock) {
      while (total > 0) {
        total -= ch.write(buffers);
      }
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
    if (channel == null) {
      kill();
      return;
    }
    try {
      ByteBuffer f = ByteBuffer.allocate(5).putInt(1).put(Frames.SHUTDOWN).flip();
      write(f);
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
    if (channel == null) {
      closeServer();
    }
  }

  private void closeServer() {
    ServerSocketChannel s = server;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // nothing to do
      }
    }
    Path p = socket;
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        LOG.debug("cannot delete {}", p, e);
      }
    }
  }

  private void died() {
    SocketChannel ch = channel;
    if (ch != null) {
      try {
        ch.close();
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
