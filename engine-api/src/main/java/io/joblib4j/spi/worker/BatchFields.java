package io.joblib4j.spi.worker;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes and reads the fields of a batch besides its tasks, so that a batch of plain tasks (each a
 * serializable lambda of boxed primitives and strings, applied to such values) can cross to a
 * worker without Java serialization, whose first use costs a fresh JVM tens of milliseconds. Given
 * to both ends ({@link BatchCodec.Builder#batchFields}, {@link WorkerLoop.Builder#batchFields}) with
 * {@link WireFormat#SAME_CLASS_FILES}; the batches it does not know, and every batch of a codec
 * without one, are written by Java serialization.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface BatchFields {
  /**
   * Whether this writes the fields of {@code batch}.
   *
   * @param batch any batch
   * @return true if {@link #write} knows its class
   */
  boolean knows(Batch batch);

  /**
   * Writes the fields of {@code batch} besides its tasks.
   *
   * @param batch a batch {@link #knows} accepted
   * @param out where to write
   * @throws java.io.UTFDataFormatException if a string is too long for {@code writeUTF} (the batch
   *     then goes by Java serialization)
   * @throws IOException if {@code out} fails
   */
  void write(Batch batch, DataOutput out) throws IOException;

  /**
   * The batch {@link #write} wrote, holding {@code tasks}.
   *
   * @param in where to read
   * @param tasks the batch's tasks, read before
   * @return the batch
   * @throws IOException if {@code in} ends, fails or holds what {@link #write} does not write
   */
  Batch read(DataInput in, List<Delayed<?>> tasks) throws IOException;
}
