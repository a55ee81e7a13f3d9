package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.worker.BatchFields;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The core's batches written field by field (call, place, function name, nesting level and thread
 * budget), for backends that send batches of plain tasks without Java serialization: see {@link
 * BatchFields}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TaskBatchForm implements BatchFields {
  private static final TaskBatchForm INSTANCE = new TaskBatchForm();

  private TaskBatchForm() {}

  /**
   * The fields of the core's batches.
   *
   * @return the one instance
   */
  public static BatchFields instance() {
    return INSTANCE;
  }

  @Override
  public boolean knows(Batch batch) {
    return batch instanceof TaskBatch;
  }

  @Override
  public void write(Batch batch, DataOutput out) throws IOException {
    ((TaskBatch) batch).writeFields(out);
  }

  @Override
  public Batch read(DataInput in, List<Delayed<?>> tasks) throws IOException {
    return TaskBatch.readFields(in, tasks);
  }
}
