package io.joblib4j.internal.processes;

import io.joblib4j.TaskSerializationException;
import io.joblib4j.internal.parallel.TaskBatchForm;
import io.joblib4j.spi.BackendCall;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import io.joblib4j.spi.CallSpec;
import io.joblib4j.spi.worker.BatchCodec;
import io.joblib4j.spi.worker.WireFormat;
import java.io.UncheckedIOException;

/**
 * One {@code Parallel} call on the processes backend: serializes each batch before it is queued
 * (so errors come before anything reaches a worker), and holds the call's codec — which turns what
 * workers send back into outcomes and errors — and its temporary folder of shared arrays.
 */
final class ProcessesCall implements BackendCall {
  /** What the worker's side of the codec runs with, in {@link WorkerMain}. */
  static final WireFormat WIRE_FORMAT = WireFormat.SAME_CLASS_FILES;

  private final ProcessesBackend backend;
  private final WorkerPool pool;
  private final CallSpec spec;
  private final CallFolder folder;
  private final BatchCodec codec;
  private final byte[] initializer;
  private volatile boolean cancelled;
  private boolean closed;

  ProcessesCall(ProcessesBackend backend, WorkerPool pool, CallSpec spec, WorkerClasspath classpath,
      ClassLoader loader) {
    this.backend = backend;
    this.pool = pool;
    this.spec = spec;
    this.folder = new CallFolder(spec.callId(), spec.tempFolder(), spec.maxNbytes(), pool.keptArrays());
    ClassVisibility visibility = classpath.visibility();
    this.codec = BatchCodec.builder()
        .wireFormat(WIRE_FORMAT)
        .batchFields(TaskBatchForm.instance())
        .classLoader(loader)
        .refuseClasses(c -> visibility.canLoad(c) ? null : ClassVisibility.explain(c))
        .sharer(folder)
        .destination("a worker JVM")
        .classPathHint("Workers use this JVM's class path; a class that is not on it (defined at run time, or"
            + " by a class loader joblib4j cannot reproduce) cannot be loaded there")
        .build();
    this.initializer = spec.initializer() == null ? null : codec.encodeInitializer(spec.initializer());
  }

  int nJobs() {
    return spec.nJobs();
  }

  boolean isCancelled() {
    return cancelled;
  }

  BatchCodec codec() {
    return codec;
  }

  /** The serialized initializer, or null. */
  byte[] initializer() {
    return initializer;
  }

  @Override
  public void submit(Batch batch, BatchListener listener) {
    if (cancelled) {
      return;
    }
    byte[] bytes;
    try {
      bytes = codec.encodeBatch(batch);
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
    codec.close(); // deletes the call's folder
    backend.callClosed(this);
  }
}
