package io.joblib4j.internal.processes;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.util.List;
import io.joblib4j.Delayed;
import io.joblib4j.array.NDArray;

/**
 * The parent's serialization of what goes to a worker: refuses classes the worker cannot load
 * (checked once per class per stream, in {@link #annotateClass}), writes the batch's task list as
 * {@link CompactTasks}, and replaces arrays the call shares by references to files: primitive
 * arrays and heap NDArrays over {@code maxNbytes} (unless it is negative), and every memory-mapped
 * NDArray.
 */
final class BatchOutput extends ObjectOutputStream {
  /** Raised for a class the worker cannot load; carries the class for the error message. */
  static final class InvisibleClassException extends InvalidClassException {
    final transient Class<?> type;

    InvisibleClassException(Class<?> type) {
      super(type.getName(), ClassVisibility.explain(type));
      this.type = type;
    }
  }

  private final ClassVisibility visibility;
  private final CallFolder sharing;
  private final long maxNbytes;
  private List<Delayed<?>> tasks;

  /**
   * @param tasks the batch's tasks, whose list is written compactly, or null
   * @param sharing where large arrays go, or null to copy them
   */
  BatchOutput(OutputStream out, ClassVisibility visibility, List<Delayed<?>> tasks, CallFolder sharing,
      long maxNbytes) throws IOException {
    super(out);
    this.visibility = visibility;
    this.tasks = tasks == null || tasks.isEmpty() ? null : tasks;
    this.sharing = sharing;
    this.maxNbytes = maxNbytes;
    enableReplaceObject(true);
  }

  @Override
  protected void annotateClass(Class<?> cl) throws IOException {
    if (!visibility.canLoad(cl)) {
      throw new InvisibleClassException(cl);
    }
  }

  @Override
  protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
    ClassDescriptors.write(this, desc);
  }

  @Override
  protected void annotateProxyClass(Class<?> cl) throws IOException {
    annotateClass(cl);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Object replaceObject(Object obj) throws IOException {
    if (tasks != null && obj instanceof List<?> l && isTheTaskList(l)) {
      tasks = null; // one list per batch
      return new CompactTasks((List<Delayed<?>>) l);
    }
    if (sharing == null) {
      return obj;
    }
    Class<?> c = obj.getClass();
    if (c.isArray()) {
      return maxNbytes >= 0 && c.getComponentType().isPrimitive() && SharedArrayFiles.byteSize(obj) > maxNbytes
          ? sharing.sharePrimitive(obj) : obj;
    }
    NDArray a = NDArrays.unwrap(obj);
    if (a != null && (a.isMapped() || maxNbytes >= 0 && a.nbytes() > maxNbytes)) {
      return sharing.share(a);
    }
    return obj;
  }

  /** The batch holds its tasks in a list of its own; this recognizes it without knowing its field. */
  private boolean isTheTaskList(List<?> l) {
    int n = tasks.size();
    return l.size() == n && l.get(0) == tasks.get(0) && l.get(n - 1) == tasks.get(n - 1)
        && l.getClass() == java.util.ArrayList.class;
  }
}
