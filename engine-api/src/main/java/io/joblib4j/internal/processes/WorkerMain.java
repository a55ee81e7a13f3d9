package io.joblib4j.internal.processes;

import io.joblib4j.internal.parallel.TaskBatchForm;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Map;

/**
 * The main class of a worker JVM of the {@code processes} backend. Arguments: where the parent
 * listens, {@code unix <socket file>} or {@code tcp <host> <port>} ({@link WorkerListener}); the
 * token that identifies this worker to it comes in {@link #TOKEN_VARIABLE}, in hexadecimal.
 *
 * <p>The worker connects and serves batches in a {@link WorkerLoop} until told to exit. It exits as soon
 * as the parent is gone, however the parent ended (even {@code kill -9}): its stdin is a pipe from
 * the parent and reaches end of file, its socket closes, and the parent process's exit is watched
 * too — three independent signals, because a busy worker is not reading its socket.
 *
 * <p>Kept warm ({@code keepWarm}, {@link WarmWorkers}), an idle worker outlives its parent instead:
 * told PARK as the parent exits, or finding the parent gone while no task runs (it was still
 * starting, or the parent was killed), it waits at its socket for the next program ({@link
 * WorkerPark}) and then serves that one, its output sent over the connection. A busy worker still
 * halts with its parent: its work was for the parent that is gone.
 *
 * <p>Kept small and light to load: the first call waits for workers to start.
 */
public final class WorkerMain {
  private WorkerMain() {}

  /** The environment variable that carries the worker's token. */
  static final String TOKEN_VARIABLE = "JOBLIB4J_WORKER_TOKEN";
  /** The environment variable naming the parent's folder for spilled results. */
  static final String RESULTS_VARIABLE = "JOBLIB4J_WORKER_RESULTS";
  /** Results larger than this serialized go back through a file rather than the connection. */
  static final long SPILL_OVER_BYTES = 8 << 20;

  public static void main(String[] args) {
    String envToken = System.getenv(TOKEN_VARIABLE);
    boolean unix = args.length == 2 && args[0].equals("unix");
    boolean tcp = args.length == 3 && args[0].equals("tcp");
    if (!unix && !tcp || envToken == null) {
      System.err.println("joblib4j worker: expected unix <socket file> or tcp <host> <port>, and " + TOKEN_VARIABLE
          + "; this class is started by the processes backend, not by hand");
      Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
    }
    watchParent();
    String name = "process " + ProcessHandle.current().pid();
    String results = System.getenv(RESULTS_VARIABLE);
    SocketChannel channel = null;
    try {
      channel = unix ? SocketChannel.open(UnixDomainSocketAddress.of(args[1]))
          : SocketChannel.open(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])));
      if (tcp) {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      }
      current = channel;
    } catch (IOException | RuntimeException e) {
      if (SELF_PARK == null) {
        System.err.println("joblib4j worker: cannot connect to the parent at " + String.join(" ", args) + ": " + e);
        Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
        return;
      }
      parentGone(0); // it ended as this worker started: park for the next program
    }
    // tells the parent who called System.exit, or that a signal ended this JVM, for its crash report
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      WorkerLoop l = loop;
      if (l != null) {
        l.exiting(exitCaller());
      }
    }, "joblib4j-worker-exit-report"));
    byte[] token = WorkerTokens.decode(envToken);
    while (true) {
      if (!parked) {
        loop = newLoop(name, results);
        serve(loop, channel, token, name);
        if (!loop.parked() && !parked) {
          break;
        }
      }
      if (channel != null) {
        ChannelStreams.closeQuietly(channel);
      }
      WorkerPark.Adoption adoption = WorkerPark.await(parkNote);
      if (adoption == null) {
        break; // nobody came: exit as if told to
      }
      // the adopter's parent process is the one to outlive no longer than; its output goes back
      // over the connection, as this JVM's stdout and stderr still lead to the first parent
      channel = adoption.channel();
      token = adoption.adopt().token();
      results = adoption.adopt().resultsDir();
      synchronized (WorkerMain.class) {
        current = channel;
        connection++;
        parked = false;
      }
      watchAdopter(adoption.adopt().parentPid(), connection);
    }
    exitRequested = true; // finishes exiting even if the parent goes meanwhile
    CdsRecorder.finishBeforeExit();
    System.exit(0); // runs the tasks' shutdown hooks, as a normal JVM exit would
  }

  /** The note this worker was launched with, or null: then it parks only when told to. */
  private static final WarmWorkers.Note SELF_PARK = selfPark();
  /** The connection to the current parent, closed to end {@link #serve} when this worker parks itself. */
  private static volatile SocketChannel current;

  private static WarmWorkers.Note selfPark() {
    String note = System.getenv(WarmWorkers.PARK_VARIABLE);
    try {
      return note == null ? null : WarmWorkers.Note.decode(note.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (IOException e) {
      return null;
    }
  }

  /** The loop serving the current parent; the exit report goes through it. */
  private static volatile WorkerLoop loop;
  /** What the parent sent with PARK, for {@link WorkerPark}. */
  private static volatile WarmWorkers.Note parkNote;
  /** How many parents adopted this worker after the one that started it. */
  private static volatile int connection;
  /** Between PARK and adoption: no parent's end ends this worker. */
  private static volatile boolean parked;
  /** A batch has run here: the class-data-sharing recording, if any, was dumped. */
  private static boolean warm;

  private static WorkerLoop newLoop(String name, String results) {
    WorkerLoop.Builder builder = WorkerLoop.builder(name)
        .wireFormat(ProcessesCall.WIRE_FORMAT)
        .batchFields(TaskBatchForm.instance())
        .resultReplacer(WorkerArrays::resultReplacement)
        .onRelease(WorkerArrays::release)
        .beforeTasksRun(WorkerArrays::beforeTasksRun)
        .whileTasksRun(CdsRecorder.WHILE_TASKS_RUN)
        .onBatchDone(new java.util.function.IntConsumer() {
          @Override
          public void accept(int tasks) {
            if (!warm) {
              warm = true;
              CdsRecorder.dumpIfRecorder(); // once warm: the archive holds what a batch needs
            }
          }
        })
        .onPark(WorkerMain::park);
    if (results != null && !results.isEmpty()) {
      builder.spillResults(java.nio.file.Path.of(results), SPILL_OVER_BYTES);
    }
    WorkerLoop l = builder.build();
    if (connection > 0) {
      System.setOut(new java.io.PrintStream(l.output(1), true));
      System.setErr(new java.io.PrintStream(l.output(2), true));
    }
    return l;
  }

  private static void serve(WorkerLoop l, SocketChannel channel, byte[] token, String name) {
    try {
      l.serve(ChannelStreams.in(channel), ChannelStreams.out(channel), token, "");
    } catch (IOException e) {
      if (parked) {
        return; // parentGone closed the connection to park
      }
      if (!WorkerLoop.isDisconnect(e)) {
        System.err.println("joblib4j worker " + name + ": protocol error: " + e);
        Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
      }
      parentGone(connection);
    } catch (Throwable t) {
      System.err.println("joblib4j worker " + name + ": internal error");
      t.printStackTrace();
      Runtime.getRuntime().halt(WorkerExitCodes.INTERNAL_ERROR);
    }
  }

  /** PARK: from now until an adoption, no parent's end is this worker's; what the calls shared is dropped. */
  private static synchronized void park(byte[] note) {
    try {
      parkNote = WarmWorkers.Note.decode(note);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    parked = true;
    WorkerArrays.releaseAll();
    System.out.flush();
    System.err.flush();
  }

  private static void watchAdopter(long pid, int epoch) {
    Thread t = new Thread(() -> {
      java.util.Optional<ProcessHandle> parent = ProcessHandle.of(pid);
      if (parent.isPresent()) {
        parent.get().onExit().join();
      }
      parentGone(epoch);
    }, "joblib4j-worker-adopter-watch");
    t.setDaemon(true);
    t.start();
  }

  /** Who called {@code System.exit}, found in the stack of the thread that did, or that a signal ended this JVM. */
  private static String exitCaller() {
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      StackTraceElement[] stack = e.getValue();
      for (int i = 0; i < stack.length - 1; i++) {
        if (stack[i].getClassName().equals("java.lang.Runtime") && stack[i].getMethodName().equals("exit")) {
          int caller = i + 1;
          if (stack[caller].getClassName().equals("java.lang.System") && caller + 1 < stack.length) {
            caller++;
          }
          StackTraceElement f = stack[caller];
          return "System.exit called at " + f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName()
              + ":" + f.getLineNumber() + ") in thread \"" + e.getKey().getName() + "\"";
        }
      }
    }
    return "the JVM shut down (SIGTERM, SIGINT, or every non-daemon thread ended)";
  }

  /**
   * Halts this worker when the parent process ends, whether or not a task is running: at the end
   * of stdin, and — in case the pipe's other end leaked into another process — when the parent
   * process exits. The second watch is set up a second later: it loads a fair part of {@code
   * java.util.concurrent}, which would delay the first batch.
   */
  private static void watchParent() {
    Thread stdin = new Thread(WorkerMain::awaitEndOfStdin, "joblib4j-worker-parent-watch");
    stdin.setDaemon(true);
    stdin.start();
  }

  private static void awaitEndOfStdin() {
    Thread later = new Thread(() -> {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
      ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(WorkerMain::parentGone));
    }, "joblib4j-worker-parent-exit-watch");
    later.setDaemon(true);
    later.start();
    InputStream in = System.in;
    byte[] buf = new byte[64];
    try {
      while (in.read(buf) >= 0) {
        // the parent never writes; anything read is ignored
      }
    } catch (IOException e) {
      // a broken pipe means the same as end of file
    }
    parentGone();
  }

  /** Set when the parent asked this worker to exit: it then finishes exiting even if the parent goes. */
  static volatile boolean exitRequested;

  /** The parent that started this worker is gone. */
  static void parentGone() {
    parentGone(0);
  }

  /**
   * The parent of connection {@code epoch} (0: the one that started this worker, then each adopter
   * in turn) is gone. Nothing to do if it asked this worker to exit, parked it, or is not the
   * current parent. Else a worker kept warm ({@link WarmWorkers}) that is not running tasks parks
   * itself for the next program; any other halts, as its work was for the parent that is gone.
   */
  static synchronized void parentGone(int epoch) {
    if (exitRequested || parked || epoch != connection) {
      return;
    }
    WarmWorkers.Note note = parkNote != null ? parkNote : SELF_PARK;
    if (note != null && !CdsRecorder.WHILE_TASKS_RUN.isLocked()) {
      parkNote = note;
      parked = true;
      WorkerArrays.releaseAll();
      SocketChannel c = current;
      if (c != null) {
        ChannelStreams.closeQuietly(c); // ends serve(): the main thread goes on to park
      }
      return;
    }
    Runtime.getRuntime().halt(WorkerExitCodes.PARENT_GONE);
  }

}
