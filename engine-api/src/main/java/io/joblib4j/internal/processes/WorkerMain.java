package io.joblib4j.internal.processes;

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
    String token = System.getenv(TOKEN_VARIABLE);
    boolean unix = args.length == 2 && args[0].equals("unix");
    boolean tcp = args.length == 3 && args[0].equals("tcp");
    if (!unix && !tcp || token == null) {
      System.err.println("joblib4j worker: expected unix <socket file> or tcp <host> <port>, and " + TOKEN_VARIABLE
          + "; this class is started by the processes backend, not by hand");
      Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
    }
    watchParent();
    String name = "process " + ProcessHandle.current().pid();
    WorkerLoop.Builder builder = WorkerLoop.builder(name)
        .wireFormat(ProcessesCall.WIRE_FORMAT)
        .resultReplacer(WorkerArrays::resultReplacement)
        .onRelease(WorkerArrays::release)
        .whileTasksRun(CdsRecorder.WHILE_TASKS_RUN)
        .onBatchDone(new java.util.function.IntConsumer() {
          private boolean first = true;

          @Override
          public void accept(int tasks) {
            if (first) {
              first = false;
              CdsRecorder.dumpIfRecorder(); // once warm: the archive holds what a batch needs
            }
          }
        });
    String results = System.getenv(RESULTS_VARIABLE);
    if (results != null && !results.isEmpty()) {
      builder.spillResults(java.nio.file.Path.of(results), SPILL_OVER_BYTES);
    }
    WorkerLoop loop = builder.build();
    SocketChannel channel;
    try {
      channel = unix ? SocketChannel.open(UnixDomainSocketAddress.of(args[1]))
          : SocketChannel.open(new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2])));
      if (tcp) {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("joblib4j worker: cannot connect to the parent at " + String.join(" ", args) + ": " + e);
      Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
      return;
    }
    // tells the parent who called System.exit, or that a signal ended this JVM, for its crash report
    Runtime.getRuntime().addShutdownHook(new Thread(() -> loop.exiting(exitCaller()), "joblib4j-worker-exit-report"));
    try {
      loop.serve(ChannelStreams.in(channel), ChannelStreams.out(channel), WorkerTokens.decode(token), "");
    } catch (IOException e) {
      if (!WorkerLoop.isDisconnect(e)) {
        System.err.println("joblib4j worker " + name + ": protocol error: " + e);
        Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
      }
      parentGone();
    } catch (Throwable t) {
      System.err.println("joblib4j worker " + name + ": internal error");
      t.printStackTrace();
      Runtime.getRuntime().halt(WorkerExitCodes.INTERNAL_ERROR);
    }
    exitRequested = true; // finishes exiting even if the parent goes meanwhile
    CdsRecorder.finishBeforeExit();
    System.exit(0); // runs the tasks' shutdown hooks, as a normal JVM exit would
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

  static void parentGone() {
    if (!exitRequested) {
      Runtime.getRuntime().halt(WorkerExitCodes.PARENT_GONE);
    }
  }
}
