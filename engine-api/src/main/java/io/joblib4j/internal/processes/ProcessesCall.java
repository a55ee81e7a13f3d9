package io.joblib4j.internal.processes;

import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.BatchOutcome;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.CallSpec;
import java.io.InvalidClassException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * One {@code Parallel} call on the processes backend: serializes each batch before it is queued
 * (so errors come before anything reaches a worker), holds the call's temporary folder, and turns
 * what workers send back into outcomes and errors.
 */
final class ProcessesCall implements BackendCall {
  private final ProcessesBackend backend;
  private final WorkerPool pool;
  private final CallSpec spec;
  private final TaskEncoder encoder;
  private final ClassLoader loader;
  private final CallFolder folder;
  private final InitKey initializer;
  private volatile boolean cancelled;
  private boolean closed;

  ProcessesCall(ProcessesBackend backend, WorkerPool pool, CallSpec spec, WorkerClasspath classpath,
      ClassLoader loader) {
    this.backend = backend;
    this.pool = pool;
    this.spec = spec;
    this.encoder = new TaskEncoder(classpath.visibility());
    this.loader = loader;
    this.folder = new CallFolder(spec.callId(), spec.tempFolder());
    this.initializer = spec.initializer() == null ? null : new InitKey(encoder.encodeInitializer(spec.initializer()));
  }

  int nJobs() {
    return spec.nJobs();
  }

  boolean isCancelled() {
    return cancelled;
  }

  InitKey initializerKey() {
    return initializer;
  }

  /** The initializer's bytes if a worker that ran {@code done} still needs it, else empty. */
  byte[] initializerFor(Set<InitKey> done) {
    return initializer == null || done.contains(initializer) ? Frames.EMPTY : initializer.bytes();
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    if (cancelled) {
      return;
    }
    byte[] bytes;
    try {
      bytes = encoder.encodeBatch(batch, folder, spec.maxNbytes());
    } catch (TaskSerializationException | UncheckedIOException e) {
      listener.failed(e);
      return;
    }
    pool.submit(new Job(this, pool.nextJobId(), batch, listener, bytes));
  }

  @Override
  public void cancel() {
    cancelled = true;
    pool.cancel(this);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    cancelled = true; // nothing more is reported for this call
    pool.callEnded(this);
    if (folder.used()) {
      pool.release(spec.callId());
    }
    folder.close();
    backend.callClosed(this);
  }

  /** The outcome a worker sent, deserialized here. */
  BatchOutcome decodeOutcome(byte[] bytes, Job job, WorkerHandle w) {
    try (ResultInput in = new ResultInput(bytes, loader)) {
      return (BatchOutcome) in.readObject();
    } catch (Exception | LinkageError | StackOverflowError e) {
      throw new TaskSerializationException("the results of " + job.batch().description() + " sent by worker "
          + w.name() + " could not be deserialized here: " + e, className(e), "", e);
    }
  }

  /** The error for a FAILED frame from a worker. */
  Throwable describeWorkerFailure(Job job, WorkerHandle w, byte kind, int task, String message, byte[] error) {
    Throwable cause = decodeError(error);
    String batch = job.batch().description();
    String which = task >= 0 && task < job.batch().size() ? "task " + (task + 1) + " of " + batch : batch;
    switch (kind) {
      case Frames.INIT_FAILED -> {
        Throwable t = cause != null ? cause : new IllegalStateException(message);
        t.addSuppressed(new WorkerNote("joblib4j: the initializer failed in worker " + w.name()
            + " before " + batch));
        return t;
      }
      case Frames.BATCH_UNREADABLE -> {
        String cls = cause == null ? null : className(cause);
        String hint = cause instanceof ClassNotFoundException || cause instanceof NoClassDefFoundError
            ? ". Workers use this JVM's class path; a class that is not on it (defined at run time, or by a"
              + " class loader joblib4j cannot reproduce) cannot be loaded there"
            : "";
        return new TaskSerializationException(which + " could not be deserialized in worker " + w.name() + ": "
            + message + hint, cls, "", cause);
      }
      case Frames.RESULT_UNWRITABLE -> {
        return new TaskSerializationException("the result of " + which + " cannot be sent back from worker "
            + w.name() + ": " + message, cause == null ? null : className(cause), "", cause);
      }
      default -> {
        return new IllegalStateException("worker " + w.name() + " reported an unknown failure kind " + kind
            + ": " + message, cause);
      }
    }
  }

  private Throwable decodeError(byte[] error) {
    if (error.length == 0) {
      return null;
    }
    try (ResultInput in = new ResultInput(error, loader)) {
      return (Throwable) in.readObject();
    } catch (Exception | LinkageError e) {
      return null;
    }
  }

  private static String className(Throwable e) {
    if (e instanceof InvalidClassException ice && ice.classname != null) {
      return ice.classname;
    }
    if (e instanceof ClassNotFoundException && e.getMessage() != null) {
      return e.getMessage();
    }
    if (e instanceof NoClassDefFoundError && e.getMessage() != null) {
      return e.getMessage().replace('/', '.');
    }
    if (e instanceof java.io.NotSerializableException && e.getMessage() != null) {
      return e.getMessage();
    }
    return e.getCause() != null && e.getCause() != e ? className(e.getCause()) : null;
  }
}
