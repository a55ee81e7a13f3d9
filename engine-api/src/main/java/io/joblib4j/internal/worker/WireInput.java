package io.joblib4j.internal.worker;

import io.joblib4j.Delayed;
import io.joblib4j.spi.worker.WireFormat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Deserialization of what crossed from the other JVM. Classes are looked up in the given loader
 * first — a worker's context loader holds the user's jars, a notebook driver's its REPL classes —
 * then in joblib4j's own. It counts the tasks read so far, so that a failure names the task being
 * read: tasks are read in order, and each one is resolved only once its function and arguments
 * have been read. Shared arguments resolve themselves ({@code readResolve}).
 */
final class WireInput extends ObjectInputStream {
  private final WireFormat format;
  private final ClassLoader loader;
  private int tasksRead;

  WireInput(byte[] bytes, WireFormat format, ClassLoader loader) throws IOException {
    this(new ByteArrayInputStream(bytes), format, loader);
  }

  WireInput(InputStream in, WireFormat format, ClassLoader loader) throws IOException {
    super(in);
    this.format = format;
    this.loader = loader;
    enableResolveObject(true);
  }

  /**
   * For what a worker sent the parent (results, exceptions): no array, nor an immutable
   * collection's (which asks the filter too), may have more elements than the stream has bytes, so
   * that a lying length is refused instead of allocated (found by fuzzing). Not for batches read by
   * a worker: their shared arguments resolve into arrays far larger than the stream, and the JDK
   * asks the filter about those too.
   */
  static WireInput fromWorker(byte[] bytes, WireFormat format, ClassLoader loader) throws IOException {
    return fromWorker(new ByteArrayInputStream(bytes), bytes.length, format, loader);
  }

  /** As {@link #fromWorker(byte[], WireFormat, ClassLoader)}, for {@code length} bytes read from {@code stream}. */
  static WireInput fromWorker(InputStream stream, long length, WireFormat format, ClassLoader loader)
      throws IOException {
    WireInput in = new WireInput(stream, format, loader);
    ObjectInputFilter byteBound = info -> info.arrayLength() > length
        ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED;
    ObjectInputFilter jvmWide = in.getObjectInputFilter();
    in.setObjectInputFilter(jvmWide == null ? byteBound : ObjectInputFilter.merge(byteBound, jvmWide));
    return in;
  }

  private ClassNotFoundException missingClass;

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
    return format == WireFormat.SAME_CLASS_FILES ? ClassDescriptors.read(this, loader) : super.readClassDescriptor();
  }

  @Override
  protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
    try {
      return ClassDescriptors.load(desc.getName(), loader);
    } catch (ClassNotFoundException e) {
      if (missingClass == null) {
        missingClass = e;
      }
      throw e;
    }
  }

  /**
   * The first class this stream could not load, or null. Java serialization may go on past it and
   * fail later for a reason that hides it (a field that cannot be assigned what stood in for the
   * object of the missing class): the missing class is what to report.
   *
   * @return the first class not found, or null
   */
  ClassNotFoundException missingClass() {
    return missingClass;
  }

  @Override
  protected Object resolveObject(Object obj) {
    if (obj instanceof Delayed<?>) {
      tasksRead++;
    }
    return obj;
  }
}
