package io.joblib4j.internal.parallel;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.BatchOutcome;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serial;
import java.util.Collections;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The core's {@link Batch}: a slice of the caller's tasks plus what a worker needs to run them the
 * way the core decided (the nesting level and thread budget nested calls see).
 */
final class TaskBatch implements Batch {
  @Serial private static final long serialVersionUID = 1L;

  private final String callId;
  private final int index;
  private final long firstTask;
  private final List<Delayed<?>> tasks;
  private final String functionName;
  private final int nestingLevel;
  private final int threadBudget;

  TaskBatch(String callId, int index, long firstTask, List<Delayed<?>> tasks, String functionName,
      int nestingLevel, int threadBudget) {
    this.callId = callId;
    this.index = index;
    this.firstTask = firstTask;
    this.tasks = tasks;
    this.functionName = functionName;
    this.nestingLevel = nestingLevel;
    this.threadBudget = threadBudget;
  }

  /** Writes the fields besides the tasks, for {@link TaskBatchForm}. */
  void writeFields(DataOutput out) throws IOException {
    out.writeUTF(callId);
    out.writeInt(index);
    out.writeLong(firstTask);
    out.writeUTF(functionName);
    out.writeInt(nestingLevel);
    out.writeInt(threadBudget);
  }

  /** The batch whose other fields {@link #writeFields} wrote, holding {@code tasks}. */
  static TaskBatch readFields(DataInput in, List<Delayed<?>> tasks) throws IOException {
    return new TaskBatch(in.readUTF(), in.readInt(), in.readLong(), tasks, in.readUTF(), in.readInt(), in.readInt());
  }

  @Override
  public String callId() {
    return callId;
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public long firstTask() {
    return firstTask;
  }

  @Override
  public int size() {
    return tasks.size();
  }

  @Override
  public List<Delayed<?>> tasks() {
    return Collections.unmodifiableList(tasks);
  }

  @Override
  public String description() {
    long last = firstTask + tasks.size() - 1;
    return functionName + (last <= firstTask ? ", task " + firstTask : ", tasks " + firstTask + "-" + last);
  }

  @Override
  public String describeTask(int i) {
    return "task " + (firstTask + i) + " of " + functionName;
  }

  @Override
  public BatchOutcome run(String worker, IntConsumer taskDone) {
    Object[] results = new Object[tasks.size()];
    try (ConfigStack.Scope nested = ConfigStack.push(ConfigValues.insideTask(nestingLevel, threadBudget))) {
      for (int i = 0; i < results.length; i++) {
        try {
          results[i] = tasks.get(i).call();
        } catch (Throwable t) {
          return BatchOutcome.failure(i, t, worker);
        }
        taskDone.accept(i + 1);
      }
    }
    return BatchOutcome.success(results, worker);
  }

  @Override
  public String toString() {
    return "Batch[" + description() + "]";
  }
}
