package io.joblib4j.internal.worker;

import io.joblib4j.Delayed;
import io.joblib4j.spi.worker.ArgumentSharer;
import io.joblib4j.spi.worker.WireFormat;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Function;

/**
 * Serialization of what crosses to the other JVM, either way: refuses classes the worker cannot
 * load (checked once per class per stream, in {@link #annotateClass}), writes a batch's task list
 * as {@link CompactTasks}, passes every object through the {@link ArgumentSharer.Replacer} of the
 * batch (or of the results), and writes class descriptors by name alone in {@link
 * WireFormat#SAME_CLASS_FILES}.
 */
final class WireOutput extends ObjectOutputStream {
  /** Raised for a class the worker cannot load; carries the class and why, for the error message. */
  static final class InvisibleClassException extends InvalidClassException {
    final transient Class<?> type;
    final String why;

    InvisibleClassException(Class<?> type, String why) {
      super(type.getName(), why);
      this.type = type;
      this.why = why;
    }
  }

  private final WireFormat format;
  private final Function<Class<?>, String> whyWorkerCannotLoad;
  private final ArgumentSharer.Replacer replacer;
  private List<Delayed<?>> tasks;

  /**
   * @param whyWorkerCannotLoad why the worker cannot load a class, or null if it can; or null to
   *     check nothing
   * @param tasks the batch's tasks, whose list is written compactly, or null
   * @param replacer what to write in place of each object
   */
  WireOutput(OutputStream out, WireFormat format, Function<Class<?>, String> whyWorkerCannotLoad,
      List<Delayed<?>> tasks, ArgumentSharer.Replacer replacer) throws IOException {
    super(out);
    this.format = format;
    this.whyWorkerCannotLoad = whyWorkerCannotLoad;
    this.tasks = tasks == null || tasks.isEmpty() ? null : tasks;
    this.replacer = replacer;
    enableReplaceObject(this.tasks != null || replacer != ArgumentSharer.Replacer.NONE);
  }

  @Override
  protected void annotateClass(Class<?> cl) throws IOException {
    if (whyWorkerCannotLoad != null) {
      String why = whyWorkerCannotLoad.apply(cl);
      if (why != null) {
        throw new InvisibleClassException(cl, why);
      }
    }
  }

  @Override
  protected void annotateProxyClass(Class<?> cl) throws IOException {
    annotateClass(cl);
  }

  @Override
  protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
    if (format == WireFormat.SAME_CLASS_FILES) {
      ClassDescriptors.write(this, desc);
    } else {
      super.writeClassDescriptor(desc);
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  protected Object replaceObject(Object obj) throws IOException {
    if (tasks != null && obj instanceof List<?> l && isTheTaskList(l)) {
      tasks = null; // one list per batch
      return new CompactTasks((List<Delayed<?>>) l);
    }
    return replacer.replace(obj);
  }

  /** The batch holds its tasks in a list of its own; this recognizes it without knowing its field. */
  private boolean isTheTaskList(List<?> l) {
    int n = tasks.size();
    return l.size() == n && l.get(0) == tasks.get(0) && l.get(n - 1) == tasks.get(n - 1)
        && l.getClass() == java.util.ArrayList.class;
  }
}
