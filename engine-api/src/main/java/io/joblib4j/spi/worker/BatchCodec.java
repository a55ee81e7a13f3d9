package io.joblib4j.spi.worker;

import io.joblib4j.JoblibException;
import io.joblib4j.RemoteTaskException;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
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
import org.apiguardian.api.API;

/**
 * The parent's side of what crosses to workers in other JVMs, for one call: it serializes batches
 * and the initializer before anything is sent — so that what cannot travel fails the call at once,
 * with the task, the class and the field path at fault — and turns what workers send back into
 * the core's outcomes and errors, the same way on every backend:
 *
 * <ul>
 *   <li>a task's exception is rethrown as itself, or as a {@link RemoteTaskException} when it
 *       cannot be brought back;
 *   <li>a failing initializer is rethrown as itself, noting the worker;
 *   <li>a task or result that cannot be serialized or deserialized is a {@link
 *       TaskSerializationException} naming the task, the class and the field path.
 * </ul>
 *
 * <p>{@link #close} closes the call's {@link ArgumentSharer}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class BatchCodec implements AutoCloseable {
  private final WireFormat format;
  private final ClassLoader loader;
  private final Function<Class<?>, String> whyWorkerCannotLoad;
  private final ArgumentSharer sharer;
  private final String destination;
  private final String classPathHint;
  private final PlainBatches plainBatches;

  private BatchCodec(Builder b) {
    this.format = b.format;
    this.loader = b.loader != null ? b.loader : BatchCodec.class.getClassLoader();
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

  /**
   * The batch's bytes, large arguments shared through the call's {@link ArgumentSharer}.
   *
   * @param batch the batch
   * @return the bytes to send
   * @throws TaskSerializationException if a task cannot be serialized: names the first such task,
   *     the class and the field path
   */
  public byte[] encodeBatch(Batch batch) {
    try {
      ArgumentSharer.Replacer replacer = sharer.prepare(batch);
      byte[] plain = plainBatches != null ? plainBatches.encode(batch, replacer, whyWorkerCannotLoad) : null;
      return plain != null ? plain : encode(batch, batch.tasks(), replacer);
    } catch (IOException e) {
      throw diagnose(batch, e);
    }
  }

  /**
   * The initializer's bytes, sent with a worker's first batch ({@link WorkerLink#sendBatch}).
   *
   * @param initializer the call's initializer
   * @return the bytes to send
   * @throws TaskSerializationException if it cannot be serialized, with the field path
   */
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

  /**
   * Tells {@code listener} the batch succeeded, with the results a worker sent (an OUTCOME frame),
   * or that they could not be deserialized here.
   *
   * @param results the bytes of the OUTCOME frame
   * @param batch the batch they are the results of
   * @param worker the worker that sent them
   * @param listener the batch's listener
   */
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

  /**
   * As {@link #completed(byte[], Batch, String, BatchListener)} for results a worker on this
   * machine spilled to {@code file} (a SPILLED frame, {@link WorkerLink.Events#spilledOutcome}):
   * they are read from the file, which is then deleted, whatever the outcome.
   *
   * @param file the file the worker wrote
   * @param bytes its length, as the worker reported it
   * @param batch the batch they are the results of
   * @param worker the worker that sent them
   * @param listener the batch's listener
   */
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

  /**
   * Tells {@code listener} how the batch failed, from what a worker reported (a FAILED frame).
   *
   * @param report the worker's report
   * @param batch the batch it is about
   * @param worker the worker that sent it
   * @param listener the batch's listener
   */
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
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  public static final class Builder {
    private WireFormat format = WireFormat.PORTABLE;
    private ClassLoader loader;
    private Function<Class<?>, String> whyWorkerCannotLoad;
    private ArgumentSharer sharer = ArgumentSharer.none();
    private String destination = "a worker JVM";
    private String classPathHint = "The worker's class path must hold the classes of the tasks";
    private BatchFields fields;

    private Builder() {}

    /**
     * Writes batches of plain tasks that {@code fields} knows without Java serialization, when the
     * format is {@link WireFormat#SAME_CLASS_FILES}; the workers' loops must be given the same. None
     * by default: every batch goes by Java serialization.
     *
     * @param fields the fields of the backend's batches besides their tasks
     * @return this builder
     */
    public Builder batchFields(BatchFields fields) {
      this.fields = Objects.requireNonNull(fields, "fields");
      return this;
    }

    /**
     * {@link WireFormat#PORTABLE} by default.
     *
     * @param format the format; the workers' {@link WorkerLoop} must use the same
     * @return this builder
     */
    public Builder wireFormat(WireFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /**
     * Where classes of results and exceptions come from: the caller's context class loader,
     * usually.
     *
     * @param loader the loader
     * @return this builder
     */
    public Builder classLoader(ClassLoader loader) {
      this.loader = loader;
      return this;
    }

    /**
     * Refuses, before sending, objects of classes the workers cannot load: {@code why} says why a
     * class cannot be loaded there and what to do, or returns null if it can.
     *
     * @param why the reason a class cannot be loaded by the workers, or null if it can
     * @return this builder
     */
    public Builder refuseClasses(Function<Class<?>, String> why) {
      this.whyWorkerCannotLoad = why;
      return this;
    }

    /**
     * How large arguments are shared; {@link ArgumentSharer#none()} by default.
     *
     * @param sharer the call's sharer
     * @return this builder
     */
    public Builder sharer(ArgumentSharer sharer) {
      this.sharer = Objects.requireNonNull(sharer, "sharer");
      return this;
    }

    /**
     * Where batches go, for messages: {@code "a worker JVM"} by default, {@code "Spark executors"}.
     *
     * @param destination where batches go, in words
     * @return this builder
     */
    public Builder destination(String destination) {
      this.destination = Objects.requireNonNull(destination, "destination");
      return this;
    }

    /**
     * What to tell the user when a worker cannot find a class of a batch: how workers get classes.
     *
     * @param hint how workers get classes, in words
     * @return this builder
     */
    public Builder classPathHint(String hint) {
      this.classPathHint = Objects.requireNonNull(hint, "hint");
      return this;
    }

    /**
     * The codec.
     *
     * @return the codec, which the call closes
     */
    public BatchCodec build() {
      return new BatchCodec(this);
    }
  }
}
