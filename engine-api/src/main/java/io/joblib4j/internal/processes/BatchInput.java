package io.joblib4j.internal.processes;

import io.joblib4j.Delayed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * The worker's deserialization of a batch: turns each {@link SharedArrayRef} back into an array
 * (once per call, through {@link WorkerArrays}) and counts the tasks read so far, so that a
 * failure names the task being read — tasks are read in order, and each one is resolved only once
 * its function and arguments have been read.
 */
final class BatchInput extends ObjectInputStream {
  private final WorkerArrays arrays;
  private int tasksRead;

  BatchInput(byte[] bytes, WorkerArrays arrays) throws IOException {
    super(new ByteArrayInputStream(bytes));
    this.arrays = arrays;
    enableResolveObject(true);
  }

  /** How many tasks were read completely; the task at this index is the one being read. */
  int tasksRead() {
    return tasksRead;
  }

  /** Called by {@link CompactTasks} after each task. */
  void taskRead() {
    tasksRead++;
  }

  @Override
  protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
    return ClassDescriptors.read(this, Thread.currentThread().getContextClassLoader());
  }

  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
    return ClassDescriptors.load(desc.getName(), Thread.currentThread().getContextClassLoader());
  }

  @Override
  protected Object resolveObject(Object obj) throws IOException {
    if (obj instanceof SharedArrayRef ref) {
      return arrays.get(ref);
    }
    if (obj instanceof SharedNDArrayRef ref) {
      return arrays.get(ref);
    }
    if (obj instanceof Delayed<?>) {
      tasksRead++;
    }
    return obj;
  }
}
