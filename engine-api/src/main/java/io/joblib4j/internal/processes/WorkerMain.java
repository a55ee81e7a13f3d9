package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;

/**
 * The main class of a worker JVM of the {@code processes} backend. Arguments: the loopback address
 * and port of the parent; the token that identifies this worker to it comes in {@link
 * #TOKEN_VARIABLE}.
 *
 * <p>The worker connects, says hello, and serves batches until told to shut down. It exits as soon
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

  public static void main(String[] args) {
    String token = System.getenv(TOKEN_VARIABLE);
    if (args.length != 2 || token == null) {
      System.err.println("joblib4j worker: expected <host> <port> and " + TOKEN_VARIABLE + "; this class is"
          + " started by the processes backend, not by hand");
      Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
    }
    watchParent();
    WorkerSession session;
    try {
      Socket socket = new Socket(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
      socket.setTcpNoDelay(true);
      session = new WorkerSession(socket);
      session.hello(Long.parseLong(token));
    } catch (IOException | RuntimeException e) {
      System.err.println("joblib4j worker: cannot connect to the parent at " + args[0] + ":" + args[1] + ": " + e);
      Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(session::exiting, "joblib4j-worker-exit-report"));
    session.serve();
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
