package io.joblib4j.internal.worker;

import io.joblib4j.Delayed;
import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.util.ArrayList;
import java.util.List;

/**
 * Stands in, inside a serialized batch, for the batch's list of tasks: each task is written as a
 * head byte, its function unless it is the previous task's (the tasks of a call usually share
 * one), and its arguments through {@link TaggedValues}, instead of a {@code Delayed} object and an
 * argument array per task. Read back, it becomes the same list of {@code Delayed} again. This
 * makes tiny tasks several times cheaper to send; anything unusual still goes through ordinary
 * serialization.
 */
final class CompactTasks implements Serializable {
  @Serial private static final long serialVersionUID = 1L;
  /** Flag in a task's head byte: same function as the task before (the head's low bits count arguments). */
  private static final int SAME_FUNCTION = 0x80;

  private transient List<Delayed<?>> tasks;

  CompactTasks(List<Delayed<?>> tasks) {
    this.tasks = tasks;
  }

  @Serial
  private void writeObject(ObjectOutputStream out) throws IOException {
    out.writeInt(tasks.size());
    Object previous = null;
    for (Delayed<?> d : tasks) {
      List<Object> args = d.arguments();
      boolean same = d.function() == previous;
      out.writeByte(args.size() | (same ? SAME_FUNCTION : 0));
      if (!same) {
        previous = d.function();
        out.writeObject(previous);
      }
      for (Object a : args) {
        TaggedValues.write(out, a);
      }
    }
  }

  @Serial
  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    int n = in.readInt();
    if (n < 0) {
      throw new StreamCorruptedException("negative task count " + n);
    }
    tasks = new ArrayList<>(n);
    Object fn = null;
    for (int i = 0; i < n; i++) {
      int head = in.readUnsignedByte();
      if ((head & SAME_FUNCTION) == 0) {
        fn = in.readObject();
      }
      int argc = head & ~SAME_FUNCTION;
      Object[] args = new Object[argc];
      for (int k = 0; k < argc; k++) {
        args[k] = TaggedValues.read(in);
      }
      tasks.add(delayed(fn, args));
      if (in instanceof WireInput b) {
        b.taskRead();
      }
    }
  }

  @Serial
  private Object readResolve() throws ObjectStreamException {
    return tasks;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Delayed<?> delayed(Object fn, Object[] a) throws StreamCorruptedException {
    return switch (a.length) {
      case 0 -> Delayed.delayed((Fn0) fn);
      case 1 -> Delayed.delayed((Fn1) fn, a[0]);
      case 2 -> Delayed.delayed((Fn2) fn, a[0], a[1]);
      case 3 -> Delayed.delayed((Fn3) fn, a[0], a[1], a[2]);
      case 4 -> Delayed.delayed((Fn4) fn, a[0], a[1], a[2], a[3]);
      case 5 -> Delayed.delayed((Fn5) fn, a[0], a[1], a[2], a[3], a[4]);
      case 6 -> Delayed.delayed((Fn6) fn, a[0], a[1], a[2], a[3], a[4], a[5]);
      default -> throw new StreamCorruptedException("a task with " + a.length + " arguments");
    };
  }
}
