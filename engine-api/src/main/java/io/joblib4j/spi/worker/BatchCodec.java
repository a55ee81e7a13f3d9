package io.joblib4j.spi.worker;

import io.joblib4j.fn.Action;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchListener;
import java.nio.file.Path;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The parent's side of what crosses to workers in other JVMs, for one call: it serializes batches
 * and the initializer before anything is sent — so that what cannot travel fails the call at once,
 * with the task, the class and the field path at fault — and turns what workers send back into
 * the core's outcomes and errors, the same way on every backend:
 *
 * <ul>
 *   <li>a task's exception is rethrown as itself, or as a {@link io.joblib4j.RemoteTaskException}
 *       when it cannot be brought back;
 *   <li>a failing initializer is rethrown as itself, noting the worker;
 *   <li>a task or result that cannot be serialized or deserialized is a {@link
 *       io.joblib4j.TaskSerializationException} naming the task, the class and the field path.
 * </ul>
 *
 * <p>{@link #close} closes the call's {@link ArgumentSharer}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface BatchCodec extends AutoCloseable {
  /**
   * A builder for one call's codec.
   *
   * @return a new builder
   */
  static Builder builder() {
    return WorkerProtocol.installed().codec();
  }

  /**
   * The batch's bytes, large arguments shared through the call's {@link ArgumentSharer}.
   *
   * @param batch the batch
   * @return the bytes to send
   * @throws io.joblib4j.TaskSerializationException if a task cannot be serialized: names the first such task,
   *     the class and the field path
   */
  byte[] encodeBatch(Batch batch);

  /**
   * The initializer's bytes, sent with a worker's first batch ({@link WorkerLink#sendBatch}).
   *
   * @param initializer the call's initializer
   * @return the bytes to send
   * @throws io.joblib4j.TaskSerializationException if it cannot be serialized, with the field path
   */
  byte[] encodeInitializer(Action initializer);

  /**
   * Tells {@code listener} the batch succeeded, with the results a worker sent (an OUTCOME frame),
   * or that they could not be deserialized here.
   *
   * @param results the bytes of the OUTCOME frame
   * @param batch the batch they are the results of
   * @param worker the worker that sent them
   * @param listener the batch's listener
   */
  void completed(byte[] results, Batch batch, String worker, BatchListener listener);

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
  void completed(Path file, long bytes, Batch batch, String worker, BatchListener listener);

  /**
   * Tells {@code listener} how the batch failed, from what a worker reported (a FAILED frame).
   *
   * @param report the worker's report
   * @param batch the batch it is about
   * @param worker the worker that sent it
   * @param listener the batch's listener
   */
  void failed(FailureReport report, Batch batch, String worker, BatchListener listener);

  /** Frees what the call shared with its workers. */
  @Override
  void close();

  /** How a codec is set up; the worker side's {@link WorkerLoop.Builder} must use the same {@link WireFormat}. */
  @API(status = API.Status.EXPERIMENTAL, since = "0.1")
  interface Builder {
    /**
     * Writes batches of plain tasks that {@code fields} knows without Java serialization, when the
     * format is {@link WireFormat#SAME_CLASS_FILES}; the workers' loops must be given the same. None
     * by default: every batch goes by Java serialization.
     *
     * @param fields the fields of the backend's batches besides their tasks
     * @return this builder
     */
    Builder batchFields(BatchFields fields);

    /**
     * {@link WireFormat#PORTABLE} by default.
     *
     * @param format the format; the workers' {@link WorkerLoop} must use the same
     * @return this builder
     */
    Builder wireFormat(WireFormat format);

    /**
     * Where classes of results and exceptions come from: the caller's context class loader,
     * usually.
     *
     * @param loader the loader
     * @return this builder
     */
    Builder classLoader(ClassLoader loader);

    /**
     * Refuses, before sending, objects of classes the workers cannot load: {@code why} says why a
     * class cannot be loaded there and what to do, or returns null if it can.
     *
     * @param why the reason a class cannot be loaded by the workers, or null if it can
     * @return this builder
     */
    Builder refuseClasses(Function<Class<?>, String> why);

    /**
     * How large arguments are shared; {@link ArgumentSharer#none()} by default.
     *
     * @param sharer the call's sharer
     * @return this builder
     */
    Builder sharer(ArgumentSharer sharer);

    /**
     * Where batches go, for messages: {@code "a worker JVM"} by default, {@code "Spark executors"}.
     *
     * @param destination where batches go, in words
     * @return this builder
     */
    Builder destination(String destination);

    /**
     * What to tell the user when a worker cannot find a class of a batch: how workers get classes.
     *
     * @param hint how workers get classes, in words
     * @return this builder
     */
    Builder classPathHint(String hint);

    /**
     * The codec.
     *
     * @return the codec, which the call closes
     */
    BatchCodec build();
  }
}
