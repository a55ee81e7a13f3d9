package io.joblib4j.internal.processes;

import io.joblib4j.Delayed;
import io.joblib4j.TaskSerializationException;
import io.joblib4j.spi.Batch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectStreamException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Predicate;

/**
 * Serializes what the parent sends to workers — batches and initializers — and, when that fails,
 * finds which task and which field path is at fault, so the call fails before anything reaches a
 * worker with an error that says what to fix.
 */
final class TaskEncoder {
  static final String TO_WORKER = "%s cannot be sent to a worker JVM: ";

  private final ClassVisibility visibility;

  TaskEncoder(ClassVisibility visibility) {
    this.visibility = visibility;
  }

  /** The batch's bytes; large primitive arrays go to {@code sharing} when it is not null. */
  byte[] encodeBatch(Batch batch, CallFolder sharing, long maxNbytes) {
    try {
      return encode(batch, batch.tasks(), sharing, maxNbytes);
    } catch (IOException e) {
      throw diagnose(batch, e);
    }
  }

  /** The initializer's bytes. */
  byte[] encodeInitializer(Object initializer) {
    try {
      return encode(initializer, null, null, -1);
    } catch (IOException e) {
      throw describe(TO_WORKER.formatted("the initializer"), initializer, e);
    }
  }

  private byte[] encode(Object o, List<Delayed<?>> tasks, CallFolder sharing, long maxNbytes) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    try (BatchOutput out = new BatchOutput(bytes, visibility, tasks, sharing, maxNbytes)) {
      out.writeObject(o);
    }
    return bytes.toByteArray();
  }

  /** Serializes each task alone to find the first that fails, then its field path. */
  private TaskSerializationException diagnose(Batch batch, IOException whole) {
    List<?> tasks = batch.tasks();
    for (int i = 0; i < tasks.size(); i++) {
      try (BatchOutput out = new BatchOutput(OutputStream.nullOutputStream(), visibility, null, null, -1)) {
        out.writeObject(tasks.get(i));
      } catch (IOException e) {
        return describe(TO_WORKER.formatted("task " + (i + 1) + " of " + batch.description()), tasks.get(i), e);
      }
    }
    return describe(TO_WORKER.formatted(batch.description()), batch, whole);
  }

  /** The error for {@code root} failing to serialize with {@code e}; {@code lead} starts the message. */
  static TaskSerializationException describe(String lead, Object root, IOException e) {
    String className;
    String reason;
    String advice;
    Predicate<Object> culprit;
    if (e instanceof BatchOutput.InvisibleClassException ice) {
      className = ice.type.getName();
      reason = ClassVisibility.explain(ice.type);
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
    String path = ObjectPaths.find(root, culprit).orElse("");
    String message = lead + reason + advice
        + (path.isEmpty() ? "" : ".\n  Path: " + path);
    return new TaskSerializationException(message, className, path, e);
  }
}
