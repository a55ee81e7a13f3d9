package io.joblib4j.internal.worker;

import io.joblib4j.JoblibException;
import io.joblib4j.RemoteTaskException;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.BatchFields;
import io.joblib4j.spi.worker.FailureReport;
import io.joblib4j.spi.worker.WireFormat;
import io.joblib4j.spi.worker.WorkerLoop;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * engine-api's {@link BatchCodec}: Java serialization through {@link WireOutput} and {@link WireInput},
 * plain batches and results ({@link PlainBatches}, {@link PlainResults}) where both ends load the same
 * class files, and failures diagnosed with their field paths ({@link Diagnosis}).
 */
public final class Codec implements BatchCodec {
  private final WireFormat format;
  private final ClassLoader loader;
  private final Function<Class<?>, String> whyWorkerCannotLoad;
  private final ArgumentSharer sharer;
  private final String destination;
  private final String classPathHint;
  private final PlainBatches plainBatches;

  private Codec(Builder b) {
    this.format = b.format;
    this.loader = b.loader != null ? b.loader : Codec.class.getClassLoader();
    this.whyWorkerCannotLoad = b.whyWorkerCannotLoad;
    this.sharer = b.sharer;
    this.destination = b.destination;
    this.classPathHint = b.classPathHint;
    this.plainBatches = b.fields != null && b.format == WireFormat.SAME_CLASS_FILES ? new PlainBatches(b.fields) : null;
  }

  /**
   * A builder for one call's codec.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public byte[] encodeBatch(Batch batch) {
    try {
      ArgumentSharer.Replacer replacer = sharer.prepare(batch);
      byte[] plain = plainBatches != null ? plainBatches.encode(batch, replacer, whyWorkerCannotLoad) : null;
      return plain != null ? plain : encode(batch, batch.tasks(), replacer);
    } catch (IOException e) {
      throw diagnose(batch, e);
    }
  }

  @Override
  public byte[] encodeInitializer(Action initializer) {
    try {
      return encode(initializer, null, ArgumentSharer.Replacer.NONE);
    } catch (IOException e) {
      throw Diagnosis.describe("the initializer cannot be sent to " + destination + ": ", initializer, null, e);
    }
  }

  private byte[] encode(Object o, List<io.joblib4j.Delayed<?>> tasks, ArgumentSharer.Replacer replacer)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    try (WireOutput out = new WireOutput(bytes, format, whyWorkerCannotLoad, tasks, replacer)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /** Serializes each task alone, sharing nothing, to find the first that fails, then its field path. */
  private TaskSerializationException diagnose(Batch batch, IOException whole) {
    List<?> tasks = batch.tasks();
    for (int i = 0; i < tasks.size(); i++) {
      try (WireOutput out = new WireOutput(OutputStream.nullOutputStream(), format, whyWorkerCannotLoad, null,
          ArgumentSharer.Replacer.NONE)) {
        out.writeObject(tasks.get(i));
      } catch (IOException e) {
        return Diagnosis.describe(lead(batch.describeTask(i)), tasks.get(i), null, e);
      }
    }
    return Diagnosis.describe(lead(batch.description()), batch, null, whole);
  }

  private String lead(String what) {
    return what + " cannot be sent to " + destination + ": ";
  }

  @Override
  public void completed(byte[] results, Batch batch, String worker, BatchListener listener) {
    if (format == WireFormat.SAME_CLASS_FILES && PlainResults.isPlain(results)) {
      completedPlain(results, batch, worker, listener);
      return;
    }
    try {
      completed(WireInput.fromWorker(results, format, loader), results.length, batch, worker, listener, () -> { });
    } catch (IOException e) {
      unreadable(batch, worker, listener, e);
    }
  }

  @Override
  public void completed(Path file, long bytes, Batch batch, String worker, BatchListener listener) {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      // the file goes before the listener hears of the results: whoever waits for them finds it gone
      completed(WireInput.fromWorker(in, bytes, format, loader), bytes, batch, worker, listener, () -> deleteQuietly(file));
    } catch (IOException e) {
      unreadable(batch, worker, listener, e);
    } finally {
      deleteQuietly(file);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // the backend's sweep of its folder removes it
    }
  }

  private void completed(WireInput input, long bytes, Batch batch, String worker, BatchListener listener,
      Runnable afterRead) {
    // InternalError too: the JDK's immutable collections throw it for a malformed serial form
    // ("length is odd", found by fuzzing)
    Object[] values;
    try (WireInput in = input) {
      values = (Object[]) in.readObject();
      if (values == null || values.length != batch.size()) { // found by fuzzing: null escaped as an NPE
        throw new StreamCorruptedException((values == null ? "no" : values.length) + " results for "
            + batch.size() + " tasks");
      }
    } catch (OutOfMemoryError e) {
      afterRead.run();
      listener.failed(parentOutOfMemory(batch, worker, bytes, e));
      return;
    } catch (Exception | LinkageError | StackOverflowError | InternalError e) {
      afterRead.run();
      unreadable(batch, worker, listener, e);
      return;
    }
    afterRead.run();
    listener.completed(BatchOutcome.success(values, worker));
  }

  private static void completedPlain(byte[] results, Batch batch, String worker, BatchListener listener) {
    Object[] values;
    try {
      values = PlainResults.decode(results);
      if (values.length != batch.size()) {
        throw new StreamCorruptedException(values.length + " results for " + batch.size() + " tasks");
      }
    } catch (IOException | RuntimeException e) {
      unreadable(batch, worker, listener, e);
      return;
    }
    listener.completed(BatchOutcome.success(values, worker));
  }

  private static void unreadable(Batch batch, String worker, BatchListener listener, Throwable e) {
    listener.failed(new TaskSerializationException("the results of " + batch.description() + " sent by worker "
        + worker + " could not be deserialized here: " + e, Diagnosis.className(e), "", e));
  }

  /**
   * The error for results that do not fit in this JVM's heap: the parent's own out-of-memory, not
   * the worker's, and what to do about it.
   *
   * @param batch the batch whose results were being received
   * @param worker the worker that sent them
   * @param bytes how many bytes the results take serialized, or -1 if unknown
   * @param cause the error
   * @return the exception for the call
   */
  public static JoblibException parentOutOfMemory(Batch batch, String worker, long bytes, OutOfMemoryError cause) {
    long max = Runtime.getRuntime().maxMemory();
    return new JoblibException("joblib4j: this JVM (the parent, which runs Parallel) ran out of memory"
        + " receiving the results of " + batch.description() + " from worker " + worker
        + (bytes >= 0 ? " (" + bytes + " bytes serialized)" : "") + ": its maximum heap is " + max + " bytes"
        + " (-Xmx" + (max >> 20) + "m). The worker is fine; the results do not fit here. Raise this JVM's -Xmx,"
        + " return smaller results (write large ones to files and return their paths, or return memory-mapped"
        + " NDArrays, which travel as their file), or split the work into more tasks", cause);
  }

  @Override
  public void failed(FailureReport report, Batch batch, String worker, BatchListener listener) {
    Throwable cause = exception(report);
    int task = report.task();
    String which = task >= 0 && task < batch.size() ? batch.describeTask(task) : batch.description();
    switch (report.kind()) {
      case TASK -> {
        Throwable t = cause != null ? cause
            : new RemoteTaskException(report.className(), report.message(), report.message(), worker);
        listener.completed(BatchOutcome.failure(Math.max(task, 0), t, worker));
      }
      case INITIALIZER -> {
        Throwable t = cause != null ? cause : new IllegalStateException(report.message());
        t.addSuppressed(new WorkerNote("joblib4j: the initializer failed in worker " + worker + " before "
            + batch.description()));
        listener.failed(t);
      }
      case BATCH_UNREADABLE -> {
        String hint = cause instanceof ClassNotFoundException || cause instanceof NoClassDefFoundError
            || cause instanceof RemoteTaskException r && (r.remoteClassName().equals(ClassNotFoundException.class.getName())
                || r.remoteClassName().equals(NoClassDefFoundError.class.getName())) ? ". " + classPathHint : "";
        String path = report.className() != null && task >= 0 && task < batch.size()
            ? ObjectPaths.find(batch.tasks().get(task), ObjectPaths.ofClass(report.className())).orElse("") : "";
        listener.failed(new TaskSerializationException(which + " could not be deserialized in worker " + worker
            + ": " + report.message() + hint + (path.isEmpty() ? "" : ".\n  Path: " + path), report.className(),
            path, cause));
      }
      case RESULT_UNWRITABLE -> listener.failed(new TaskSerializationException("the result of " + which
          + " cannot be sent back from worker " + worker + ": " + report.message(), report.className(),
          report.path(), cause));
      case RESULT_TOO_LARGE -> listener.failed(new JoblibException("joblib4j: " + report.message()
          + " (worker " + worker + ", " + batch.description() + ")"));
    }
  }

  /** The reported exception as itself, else its stand-in, else null. */
  private Throwable exception(FailureReport report) {
    Throwable original = null;
    String why = null;
    if (report.exception().length > 0) {
      try (WireInput in = WireInput.fromWorker(report.exception(), format, loader)) {
        original = (Throwable) in.readObject();
      } catch (Exception | LinkageError | StackOverflowError | InternalError e) {
        why = e.toString();
      }
    }
    if (original != null || report.standIn().length == 0) {
      return original;
    }
    try (WireInput in = WireInput.fromWorker(report.standIn(), format, loader)) {
      Throwable standIn = (Throwable) in.readObject();
      if (why != null) {
        standIn.addSuppressed(new WorkerNote("joblib4j: the original exception could not be deserialized here: "
            + why));
      }
      return standIn;
    } catch (Exception | LinkageError | StackOverflowError | InternalError e) {
      return null;
    }
  }

  /** Frees what the call shared with its workers. */
  @Override
  public void close() {
    sharer.close();
  }

  /** How a codec is set up; the worker side's {@link WorkerLoop.Builder} must use the same {@link WireFormat}. */
  public static final class Builder implements BatchCodec.Builder {
    private WireFormat format = WireFormat.PORTABLE;
    private ClassLoader loader;
    private Function<Class<?>, String> whyWorkerCannotLoad;
    private ArgumentSharer sharer = ArgumentSharer.none();
    private String destination = "a worker JVM";
    private String classPathHint = "The worker's class path must hold the classes of the tasks";
    private BatchFields fields;

    private Builder() {}

    @Override
    public Builder batchFields(BatchFields fields) {
      this.fields = Objects.requireNonNull(fields, "fields");
      return this;
    }

    @Override
    public Builder wireFormat(WireFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    @Override
    public Builder classLoader(ClassLoader loader) {
      this.loader = loader;
      return this;
    }

    @Override
    public Builder refuseClasses(Function<Class<?>, String> why) {
      this.whyWorkerCannotLoad = why;
      return this;
    }

    @Override
    public Builder sharer(ArgumentSharer sharer) {
      this.sharer = Objects.requireNonNull(sharer, "sharer");
      return this;
    }

    @Override
    public Builder destination(String destination) {
      this.destination = Objects.requireNonNull(destination, "destination");
      return this;
    }

    @Override
    public Builder classPathHint(String hint) {
      this.classPathHint = Objects.requireNonNull(hint, "hint");
      return this;
    }

    @Override
    public Codec build() {
      return new Codec(this);
    }
  }
}
