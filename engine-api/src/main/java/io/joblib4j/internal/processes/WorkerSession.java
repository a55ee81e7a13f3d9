package io.joblib4j.internal.processes;

import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.Socket;
import java.util.Map;

/**
 * A worker's side of the protocol ({@link Frames}): reads batches, runs each through {@link
 * Batch#run} (which applies the core's nesting rules), and writes back the outcome. One batch at a
 * time, on the main thread; a {@link ProgressReporter} thread sends progress while it runs.
 */
final class WorkerSession {
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final ProgressReporter progress;
  private final WorkerArrays arrays = new WorkerArrays();
  private final String name = "process " + ProcessHandle.current().pid();
  private volatile boolean shutdownRequested;

  WorkerSession(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
    this.progress = new ProgressReporter(out);
  }

  void hello(long token) throws IOException {
    synchronized (out) {
      Frames.writeHeader(out, 24, Frames.HELLO);
      out.writeLong(token);
      out.writeLong(ProcessHandle.current().pid());
      out.writeLong(Runtime.getRuntime().maxMemory());
      out.flush();
    }
  }

  /** Serves frames until the parent says shut down or goes away; never returns. */
  void serve() {
    try {
      while (true) {
        byte type = Frames.readType(in);
        switch (type) {
          case Frames.BATCH -> runBatch();
          case Frames.RELEASE -> arrays.release(Frames.readString(in));
          case Frames.SHUTDOWN -> {
            shutdownRequested = true;
            WorkerMain.exitRequested = true; // e.g. to write its class-data-sharing archive on the way out
            System.exit(0); // runs the tasks' shutdown hooks, as a normal JVM exit would
          }
          default -> throw new IOException("unknown frame type " + type);
        }
      }
    } catch (IOException e) {
      if (!Frames.isDisconnect(e)) {
        System.err.println("joblib4j worker " + name + ": protocol error: " + e);
        Runtime.getRuntime().halt(WorkerExitCodes.PROTOCOL_ERROR);
      }
      WorkerMain.parentGone();
    } catch (Throwable t) {
      System.err.println("joblib4j worker " + name + ": internal error");
      t.printStackTrace();
      Runtime.getRuntime().halt(WorkerExitCodes.INTERNAL_ERROR);
    }
  }

  private void runBatch() throws IOException {
    long job = in.readLong();
    byte[] init = Frames.readBytes(in);
    byte[] batchBytes = Frames.readBytes(in);
    if (init.length > 0) {
      try {
        Action initializer = (Action) plainInput(init).readObject();
        initializer.invoke();
      } catch (Exception | LinkageError | StackOverflowError t) {
        sendFailed(job, Frames.INIT_FAILED, -1, "the initializer failed in worker " + name + ": " + t, t);
        return;
      }
    }
    Batch batch;
    BatchInput reader = null;
    try {
      reader = new BatchInput(batchBytes, arrays);
      batch = (Batch) reader.readObject();
    } catch (Exception | LinkageError | StackOverflowError t) {
      sendFailed(job, Frames.BATCH_UNREADABLE, reader == null ? -1 : reader.tasksRead(), t.toString(), t);
      return;
    }
    progress.begin(job);
    BatchOutcome outcome = batch.run(name, progress::taskDone);
    byte[] bytes;
    try {
      bytes = serialize(outcome);
    } catch (Exception | StackOverflowError e) {
      bytes = outcomeFallback(job, outcome, e);
      if (bytes == null) {
        return;
      }
    }
    synchronized (out) {
      progress.end();
      Frames.writeHeader(out, 8 + Frames.sizeOfBytes(bytes.length), Frames.OUTCOME);
      out.writeLong(job);
      Frames.writeBytes(out, bytes);
      out.flush();
    }
  }

  /**
   * When the outcome cannot be serialized: a failed task's exception is replaced by a stand-in
   * that keeps its class name, message and stack trace; a result that cannot be sent fails the
   * batch with the result's index and field path. Returns the bytes to send, or null if the batch
   * was reported failed.
   */
  private byte[] outcomeFallback(long job, BatchOutcome outcome, Throwable e) throws IOException {
    if (!outcome.succeeded()) {
      BatchOutcome copy = BatchOutcome.failure(outcome.failedTask(),
          UnserializableTaskException.copyOf(outcome.failure(), e.toString()), outcome.worker());
      try {
        return serialize(copy);
      } catch (Exception | StackOverflowError again) {
        e = again;
      }
    }
    int task = -1;
    String message = e.toString();
    if (outcome.succeeded()) {
      Object[] results = outcome.results();
      for (int i = 0; i < results.length && task < 0; i++) {
        try (ObjectOutputStream o = new ObjectOutputStream(java.io.OutputStream.nullOutputStream())) {
          o.writeObject(results[i]);
        } catch (Exception | StackOverflowError bad) {
          task = i;
          IOException io = bad instanceof IOException x ? x : new IOException(bad);
          message = TaskEncoder.describe("", results[i], io).getMessage();
        }
      }
    }
    synchronized (out) {
      progress.end();
    }
    sendFailed(job, Frames.RESULT_UNWRITABLE, task, message, e);
    return null;
  }

  private void sendFailed(long job, byte kind, int task, String message, Throwable cause) throws IOException {
    byte[] error;
    try {
      error = serialize(cause);
    } catch (Exception | StackOverflowError e) {
      try {
        error = serialize(UnserializableTaskException.copyOf(cause, e.toString()));
      } catch (Exception | StackOverflowError e2) {
        error = Frames.EMPTY;
      }
    }
    byte[] text = Frames.utf8(message);
    synchronized (out) {
      Frames.writeHeader(out, 8 + 1 + 4 + Frames.sizeOfBytes(text.length) + Frames.sizeOfBytes(error.length),
          Frames.FAILED);
      out.writeLong(job);
      out.writeByte(kind);
      out.writeInt(task);
      Frames.writeBytes(out, text);
      Frames.writeBytes(out, error);
      out.flush();
    }
  }

  /**
   * Shutdown hook: tells the parent that this JVM is exiting on purpose (System.exit in a task, or
   * SIGTERM), and who called exit, so that the crash report can say so. Silent when the parent
   * asked for the shutdown.
   */
  void exiting() {
    if (shutdownRequested || socket.isClosed()) {
      return;
    }
    byte[] note = Frames.utf8(exitCaller());
    try {
      synchronized (out) {
        Frames.writeHeader(out, Frames.sizeOfBytes(note.length), Frames.EXITING);
        Frames.writeBytes(out, note);
        out.flush();
      }
    } catch (IOException e) {
      // the parent is gone; nothing to tell
    }
  }

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

  private static byte[] serialize(Object o) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (ObjectOutputStream oos = new OutcomeOutput(bytes, o)) {
      oos.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /**
   * Writes an outcome's results array as {@link CompactValues}, and a result that is the user's
   * memory-mapped NDArray as its file region, mapped again by the parent (joblib sends a memmap
   * back the same way). Heap arrays, and the temporary copies of the call's folder, come back as
   * ordinary arrays.
   */
  private static final class OutcomeOutput extends ObjectOutputStream {
    private Object[] results;

    OutcomeOutput(java.io.OutputStream out, Object root) throws IOException {
      super(out);
      if (root instanceof BatchOutcome b && b.succeeded()) { // errors are sent the same way, without results
        results = b.results();
        enableReplaceObject(true);
      }
    }

    @Override
    protected void writeClassDescriptor(java.io.ObjectStreamClass desc) throws IOException {
      ClassDescriptors.write(this, desc);
    }

    @Override
    protected Object replaceObject(Object obj) {
      if (obj == results) {
        results = null;
        return new CompactValues((Object[]) obj);
      }
      io.joblib4j.array.NDArray a = NDArrays.unwrap(obj);
      if (a != null && a.isMapped()) {
        io.joblib4j.array.ArrayMapping m = a.mapping().orElseThrow();
        if (!TempFolders.inCallFolder(m.file())) {
          return new SharedNDArrayRef(null, m);
        }
      }
      return obj;
    }
  }

  private ObjectInputStream plainInput(byte[] b) throws IOException {
    return new BatchInput(b, arrays);
  }
}
