package io.joblib4j.internal.worker;

import io.joblib4j.RemoteTaskException;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.BatchFields;
import io.joblib4j.spi.worker.FailureKind;
import io.joblib4j.spi.worker.Hello;
import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * engine-api's {@link WorkerLoop}: the worker's side of the frames ({@link Frames}), the once-per-JVM
 * initializer ({@link Initializers}), coalesced progress ({@link ProgressReporter}), and results that
 * cannot travel diagnosed ({@link Diagnosis}).
 *
 * <p>Not thread-safe, except {@link #exiting} and {@link #output}.
 */
public final class ServingLoop implements WorkerLoop {
  private final String name;
  private final WireFormat format;
  private final ClassLoader loader;
  private final ArgumentSharer.Replacer results;
  private final BatchFields fields;
  private final Consumer<String> onRelease;
  private final long maxResultBytes;
  private final String tooLargeAdvice;
  private final IntConsumer onBatchDone;
  private final Consumer<Batch> beforeTasksRun;
  private final Lock whileTasksRun;
  private final BooleanSupplier stopAfterBatch;
  private final Path spillFolder;
  private final long spillOver;
  private final Consumer<byte[]> onPark;
  private volatile DataOutputStream out;
  private volatile Socket socket;
  private volatile boolean exitRequested;
  private volatile boolean parked;
  private ProgressReporter progress;

  private ServingLoop(Builder b) {
    this.name = b.name;
    this.format = b.format;
    this.loader = b.loader;
    this.results = b.results;
    this.onRelease = b.onRelease;
    this.maxResultBytes = b.maxResultBytes;
    this.tooLargeAdvice = b.tooLargeAdvice;
    this.onBatchDone = b.onBatchDone;
    this.beforeTasksRun = b.beforeTasksRun;
    this.whileTasksRun = b.whileTasksRun;
    this.stopAfterBatch = b.stopAfterBatch;
    this.spillFolder = b.spillFolder;
    this.spillOver = b.spillOver;
    this.onPark = b.onPark;
    this.fields = b.fields;
  }

  /**
   * A loop for the worker called {@code name} in messages, e.g. {@code "process 4711"}.
   *
   * @param name the worker's name
   * @return a new builder
   */
  public static Builder builder(String name) {
    return new Builder(Objects.requireNonNull(name, "name"));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void serve(Socket socket, byte[] token, String scope) throws IOException {
    this.socket = socket;
    socket.setTcpNoDelay(true); // frames are small and a reply waits for each: no Nagle delays
    serve(socket.getInputStream(), socket.getOutputStream(), token, scope);
  }

  @Override
  public void serve(InputStream input, OutputStream output, byte[] token, String scope) throws IOException {
    DataInputStream in = new DataInputStream(new BufferedInputStream(input, 1 << 16));
    out = new DataOutputStream(new BufferedOutputStream(output, 1 << 16));
    progress = new ProgressReporter(out);
    try {
      hello(token, scope);
      while (true) {
        byte type = Frames.readType(in, Frames.MAX_FRAME);
        switch (type) {
          case Frames.BATCH -> {
            runBatch(in);
            if (stopAfterBatch.getAsBoolean()) {
              return;
            }
          }
          case Frames.RELEASE -> onRelease.accept(Frames.readString(in));
          case Frames.EXIT -> {
            exitRequested = true;
            return;
          }
          case Frames.PARK -> {
            park(Frames.readBytes(in));
            return;
          }
          default -> throw new StreamCorruptedException("unknown frame type " + type + " from the parent");
        }
      }
    } finally {
      progress.stop();
    }
  }

  @Override
  public boolean parked() {
    return parked;
  }

  private void park(byte[] note) throws IOException {
    onPark.accept(note); // before PARKED: the parent may be gone the moment it reads it
    parked = true;
    exitRequested = true; // nothing left to tell this parent
    synchronized (out) {
      Frames.writeHeader(out, 0, Frames.PARKED);
      out.flush();
    }
  }

  @Override
  public OutputStream output(int stream) {
    if (stream != 1 && stream != 2) {
      throw new IllegalArgumentException("stream must be 1 (stdout) or 2 (stderr), got " + stream);
    }
    return new OutputStream() {
      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        DataOutputStream o = out;
        if (o == null || len == 0 || exitRequested) {
          return;
        }
        try {
          synchronized (o) {
            Frames.writeHeader(o, 1 + 4 + len, Frames.OUTPUT);
            o.writeByte(stream);
            o.writeInt(len);
            o.write(b, off, len);
            o.flush();
          }
        } catch (IOException e) {
          // the parent is gone: nobody to print for
        }
      }
    };
  }

  /**
   * True if {@code e} means the parent went away, rather than a protocol error.
   *
   * @param e an exception {@link #serve} threw
   * @return whether the parent went away
   */
  public static boolean isDisconnect(IOException e) {
    return Frames.isDisconnect(e);
  }

  @Override
  public void exiting(String note) {
    DataOutputStream o = out;
    Socket s = socket;
    if (exitRequested || o == null || s != null && s.isClosed()) {
      return;
    }
    byte[] text = Frames.utf8(note);
    try {
      synchronized (o) {
        Frames.writeHeader(o, Frames.sizeOfBytes(text.length), Frames.EXITING);
        Frames.writeBytes(o, text);
        o.flush();
      }
    } catch (IOException e) {
      // the parent is gone; nothing to tell
    }
  }

  private void hello(byte[] token, String scope) throws IOException {
    byte[] s = Frames.utf8(scope);
    byte[] n = Frames.utf8(name);
    synchronized (out) {
      Frames.writeHeader(out, 4 + Frames.sizeOfBytes(token.length) + Frames.sizeOfBytes(s.length)
          + Frames.sizeOfBytes(n.length) + 16, Frames.HELLO);
      out.writeInt(Hello.VERSION);
      Frames.writeBytes(out, token);
      Frames.writeBytes(out, s);
      Frames.writeBytes(out, n);
      out.writeLong(ProcessHandle.current().pid());
      out.writeLong(Runtime.getRuntime().maxMemory());
      out.flush();
    }
  }

  private void runBatch(DataInputStream in) throws IOException {
    long job = in.readLong();
    byte[] init = Frames.readBytes(in);
    byte[] batchBytes = Frames.readBytes(in);
    ClassLoader classes = loader != null ? loader : Thread.currentThread().getContextClassLoader();
    if (init.length > 0) {
      try {
        Initializers.runOnce(init, format, classes);
      } catch (Exception | LinkageError | StackOverflowError t) {
        sendFailed(job, FailureKind.INITIALIZER, -1, "the initializer failed in worker " + name + ": " + t,
            null, "", t);
        return;
      }
    }
    Batch batch;
    if (format == WireFormat.SAME_CLASS_FILES && PlainBatches.isPlain(batchBytes)) {
      PlainBatches.Reader reader = new PlainBatches.Reader(fields, classes);
      try {
        batch = reader.read(batchBytes);
      } catch (Exception | LinkageError | StackOverflowError t) {
        sendFailed(job, FailureKind.BATCH_UNREADABLE, reader.tasksRead(), t.toString(), Diagnosis.className(t), "", t);
        return;
      }
    } else {
      WireInput reader = null;
      try {
        reader = new WireInput(batchBytes, format, classes);
        batch = (Batch) reader.readObject();
      } catch (Exception | LinkageError | StackOverflowError t) {
        // a class not found is the reason, whatever Java serialization tripped over after it
        Throwable why = reader != null && reader.missingClass() != null ? reader.missingClass() : t;
        sendFailed(job, FailureKind.BATCH_UNREADABLE, reader == null ? -1 : reader.tasksRead(), why.toString(),
            Diagnosis.className(why), "", why);
        return;
      }
    }
    try {
      beforeTasksRun.accept(batch);
    } catch (RuntimeException | LinkageError t) {
      sendFailed(job, FailureKind.BATCH_UNREADABLE, -1, "the worker could not prepare the batch: " + t,
          t.getClass().getName(), "", t);
      return;
    }
    BatchOutcome outcome;
    // taken before the parent hears "started": its timeout clock never counts a wait for the lock
    whileTasksRun.lock();
    try {
      progress.begin(job);
      outcome = batch.run(name, progress::taskDone);
    } finally {
      whileTasksRun.unlock();
    }
    onBatchDone.accept(outcome.succeeded() ? batch.size() : outcome.failedTask());
    if (!outcome.succeeded()) {
      Throwable t = outcome.failure();
      sendFailed(job, FailureKind.TASK, outcome.failedTask(), t.toString(), t.getClass().getName(), "", t);
      return;
    }
    Object[] values = outcome.results();
    // never more than the limit in memory: past it the rest is only counted, for the message
    long limit = maxResultBytes > 0 ? Math.min(maxResultBytes, MAX_RESULT_BYTES) : MAX_RESULT_BYTES;
    if (format == WireFormat.SAME_CLASS_FILES) {
      byte[] plain;
      try {
        plain = PlainResults.encode(values, results, spillFolder != null ? Math.min(limit, spillOver) : limit);
      } catch (Exception e) {
        plain = null; // Java serialization writes them, and says what went wrong
      }
      if (plain != null) {
        sendOutcome(job, plain);
        return;
      }
    }
    if (spillFolder != null) {
      sendSpillable(job, values);
      return;
    }
    CappedBytes serialized = new CappedBytes(limit);
    try (WireOutput w = new WireOutput(serialized, format, null, null, results)) {
      w.writeObject(new CompactValues(values));
    } catch (Exception | StackOverflowError e) {
      resultUnwritable(job, values, e);
      return;
    }
    if (serialized.overflowed()) {
      tooLarge(job, serialized.total(), limit);
      return;
    }
    sendOutcome(job, serialized.toByteArray());
  }

  private void tooLarge(long job, long total, long limit) throws IOException {
    String allowed = limit == maxResultBytes ? " bytes allowed" + tooLargeAdvice
        : " bytes one frame of the connection carries. Return smaller results (write large ones to storage and"
            + " return their path), or split the work into more tasks";
    sendFailed(job, FailureKind.RESULT_TOO_LARGE, -1, "the results of one batch are " + total
        + " bytes serialized, more than the " + limit + allowed, null, "", null);
  }

  private void sendOutcome(long job, byte[] bytes) throws IOException {
    synchronized (out) {
      progress.end();
      Frames.writeHeader(out, 8 + Frames.sizeOfBytes(bytes.length), Frames.OUTCOME);
      out.writeLong(job);
      Frames.writeBytes(out, bytes);
      out.flush();
    }
  }

  /**
   * Results serialized in memory up to the spill size, then into a file of the spill folder, which
   * the parent reads and deletes (a SPILLED frame names it): no 2 GiB frame limit, and the parent
   * reads them from the file instead of holding a copy of their bytes.
   */
  private void sendSpillable(long job, Object[] values) throws IOException {
    long limit = maxResultBytes > 0 ? maxResultBytes : Long.MAX_VALUE;
    SpillingBytes serialized = new SpillingBytes(spillFolder, "r-" + ProcessHandle.current().pid() + "-" + job,
        Math.min(spillOver, MAX_RESULT_BYTES), limit);
    try {
      try (WireOutput w = new WireOutput(serialized, format, null, null, results)) {
        w.writeObject(new CompactValues(values));
      } catch (SpillingBytes.SpillFailed e) {
        serialized.discard();
        sendFailed(job, FailureKind.RESULT_UNWRITABLE, -1, "the results of one batch are more than "
            + spillOver + " bytes serialized, and writing them to " + spillFolder + " for the parent failed: "
            + e.getCause() + ". Free space there (or set joblib4j.tempFolder elsewhere), or return smaller results",
            null, "", null);
        return;
      } catch (Exception | StackOverflowError e) {
        serialized.discard();
        resultUnwritable(job, values, e);
        return;
      }
      if (serialized.total() > limit) {
        serialized.discard();
        tooLarge(job, serialized.total(), limit);
        return;
      }
      if (!serialized.spilled()) {
        sendOutcome(job, serialized.toByteArray());
        return;
      }
    } catch (IOException | RuntimeException | Error e) {
      serialized.discard();
      throw e;
    }
    byte[] name = Frames.utf8(serialized.file().getFileName().toString());
    synchronized (out) {
      progress.end();
      Frames.writeHeader(out, 8 + Frames.sizeOfBytes(name.length) + 8, Frames.SPILLED);
      out.writeLong(job);
      Frames.writeBytes(out, name);
      out.writeLong(serialized.total());
      out.flush();
    }
  }

  /** The results cannot be serialized: finds the first that cannot, and its field path. */
  private void resultUnwritable(long job, Object[] values, Throwable whole) throws IOException {
    for (int i = 0; i < values.length; i++) {
      try (WireOutput o = new WireOutput(OutputStream.nullOutputStream(), format, null, null, results)) {
        o.writeObject(values[i]);
      } catch (Exception | StackOverflowError bad) {
        IOException io = bad instanceof IOException x ? x : new IOException(bad);
        TaskSerializationException d = Diagnosis.describe("", values[i], "result", io);
        sendFailed(job, FailureKind.RESULT_UNWRITABLE, i, d.getMessage(), d.className(), d.path(), bad);
        return;
      }
    }
    sendFailed(job, FailureKind.RESULT_UNWRITABLE, -1, whole.toString(), Diagnosis.className(whole), "", whole);
  }

  private void sendFailed(long job, FailureKind kind, int task, String message, String className, String path,
      Throwable cause) throws IOException {
    byte[] error = Frames.EMPTY;
    byte[] standIn = Frames.EMPTY;
    if (cause != null) {
      try {
        error = serialize(cause, ArgumentSharer.Replacer.NONE);
      } catch (Exception | StackOverflowError e) {
        message = message + " [the exception could not be serialized: " + e + "]";
      }
      try {
        standIn = serialize(RemoteTaskException.of(cause, name), ArgumentSharer.Replacer.NONE);
      } catch (Exception | StackOverflowError e) {
        // the message says enough
      }
    }
    byte[] text = Frames.utf8(message);
    byte[] cls = Frames.utf8(className);
    byte[] where = Frames.utf8(path);
    synchronized (out) {
      progress.end();
      Frames.writeHeader(out, 8 + 1 + 4 + Frames.sizeOfBytes(text.length) + Frames.sizeOfBytes(cls.length)
          + Frames.sizeOfBytes(where.length) + Frames.sizeOfBytes(error.length) + Frames.sizeOfBytes(standIn.length),
          Frames.FAILED);
      out.writeLong(job);
      out.writeByte(Frames.code(kind));
      out.writeInt(task);
      Frames.writeBytes(out, text);
      Frames.writeBytes(out, cls);
      Frames.writeBytes(out, where);
      Frames.writeBytes(out, error);
      Frames.writeBytes(out, standIn);
      out.flush();
    }
  }

  /** The most serialized result bytes one OUTCOME frame carries, with room for the frame's own fields. */
  static final long MAX_RESULT_BYTES = Frames.MAX_FRAME - 64;

  /** Keeps at most {@code limit} bytes; past it, only counts what is written. */
  private static final class CappedBytes extends ByteArrayOutputStream {
    private final long limit;
    private long total;

    CappedBytes(long limit) {
      super(256);
      this.limit = limit;
    }

    @Override
    public synchronized void write(int b) {
      if (++total <= limit) {
        super.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      total += len;
      if (total <= limit) {
        super.write(b, off, len);
      }
    }

    boolean overflowed() {
      return total > limit;
    }

    long total() {
      return total;
    }
  }

  private byte[] serialize(Object o, ArgumentSharer.Replacer replacer) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (WireOutput w = new WireOutput(bytes, format, null, null, replacer)) {
      w.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /** How a worker loop is set up. */
  public static final class Builder implements WorkerLoop.Builder {
    private final String name;
    private WireFormat format = WireFormat.PORTABLE;
    private ClassLoader loader;
    private ArgumentSharer.Replacer results = ArgumentSharer.Replacer.NONE;
    private Consumer<String> onRelease = callId -> {};
    private BatchFields fields;
    private long maxResultBytes;
    private String tooLargeAdvice = "";
    private IntConsumer onBatchDone = n -> {};
    private Consumer<Batch> beforeTasksRun = batch -> {};
    private Lock whileTasksRun = new ReentrantLock(); // uncontended unless someone else takes it
    private BooleanSupplier stopAfterBatch = () -> false;
    private Path spillFolder;
    private long spillOver;
    private Consumer<byte[]> onPark = note -> {
      throw new IllegalStateException("this worker cannot be parked");
    };

    private Builder(String name) {
      this.name = name;
    }

    @Override
    public Builder wireFormat(WireFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    @Override
    public Builder batchFields(BatchFields fields) {
      this.fields = Objects.requireNonNull(fields, "fields");
      return this;
    }

    @Override
    public Builder classLoader(ClassLoader loader) {
      this.loader = loader;
      return this;
    }

    @Override
    public Builder resultReplacer(ArgumentSharer.Replacer replacer) {
      this.results = Objects.requireNonNull(replacer, "replacer");
      return this;
    }

    @Override
    public Builder onRelease(Consumer<String> onRelease) {
      this.onRelease = Objects.requireNonNull(onRelease, "onRelease");
      return this;
    }

    @Override
    public Builder maxResultBytes(long bytes, String advice) {
      this.maxResultBytes = bytes;
      this.tooLargeAdvice = advice == null ? "" : advice;
      return this;
    }

    @Override
    public Builder onBatchDone(IntConsumer onBatchDone) {
      this.onBatchDone = Objects.requireNonNull(onBatchDone, "onBatchDone");
      return this;
    }

    @Override
    public Builder beforeTasksRun(Consumer<Batch> beforeTasksRun) {
      this.beforeTasksRun = Objects.requireNonNull(beforeTasksRun, "beforeTasksRun");
      return this;
    }

    @Override
    public Builder whileTasksRun(Lock lock) {
      this.whileTasksRun = Objects.requireNonNull(lock, "lock");
      return this;
    }

    @Override
    public Builder stopAfterBatchIf(BooleanSupplier condition) {
      this.stopAfterBatch = Objects.requireNonNull(condition, "condition");
      return this;
    }

    @Override
    public Builder onPark(Consumer<byte[]> action) {
      this.onPark = Objects.requireNonNull(action, "action");
      return this;
    }

    @Override
    public Builder spillResults(Path folder, long overBytes) {
      this.spillFolder = Objects.requireNonNull(folder, "folder");
      if (overBytes < 0) {
        throw new IllegalArgumentException("overBytes must be at least 0, not " + overBytes);
      }
      this.spillOver = overBytes;
      return this;
    }

    @Override
    public ServingLoop build() {
      return new ServingLoop(this);
    }
  }
}
