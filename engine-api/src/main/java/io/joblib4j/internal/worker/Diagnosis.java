package io.joblib4j.internal.worker;

import io.joblib4j.TaskSerializationException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectStreamException;
import java.util.function.Predicate;

/**
 * Why something could not be serialized, in words a user can act on: the class at fault, what to
 * do about it, and the path of fields that leads to it ({@link ObjectPaths}). Serves both ends: a
 * task or initializer that cannot go to a worker, a result that cannot come back.
 */
final class Diagnosis {
  private Diagnosis() {}

  /**
   * The error for {@code root} failing to serialize with {@code e}; {@code lead} starts the
   * message, {@code rootLabel} (or null) the path.
   */
  static TaskSerializationException describe(String lead, Object root, String rootLabel, IOException e) {
    String className;
    String reason;
    String advice;
    Predicate<Object> culprit;
    if (e instanceof WireOutput.InvisibleClassException ice) {
      className = ice.type.getName();
      reason = ice.why;
      advice = "";
      culprit = o -> o.getClass() == ice.type || o instanceof Class<?> c && c == ice.type;
    } else if (e instanceof NotSerializableException) {
      className = e.getMessage();
      reason = className + " is not Serializable";
      advice = ". Make it Serializable, or mark the field transient and rebuild the object in the"
          + " worker (an initializer can), or create it inside the task";
      culprit = ObjectPaths.ofClass(className);
    } else {
      className = e instanceof InvalidClassException ice ? ice.classname : null;
      reason = e.toString();
      advice = e instanceof ObjectStreamException ? "" : " (thrown by a writeObject method)";
      culprit = className != null ? ObjectPaths.ofClass(className) : ObjectPaths.notSerializable();
    }
    String path = ObjectPaths.find(root, rootLabel, culprit).orElse("");
    String message = lead + reason + advice + (path.isEmpty() ? "" : ".\n  Path: " + path);
    return new TaskSerializationException(message, className, path, e);
  }

  /** The class a deserialization error is about, or null. */
  static String className(Throwable e) {
    for (int depth = 0; e != null && depth < 16; depth++, e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof InvalidClassException ice && ice.classname != null) {
        return ice.classname;
      }
      if (e instanceof ClassNotFoundException && e.getMessage() != null) {
        return e.getMessage();
      }
      if (e instanceof NoClassDefFoundError && e.getMessage() != null) {
        return e.getMessage().replace('/', '.');
      }
      if (e instanceof NotSerializableException && e.getMessage() != null) {
        return e.getMessage();
      }
    }
    return null;
  }
}
