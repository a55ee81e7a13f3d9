package io.joblib4j.spark.connect.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.ref.SoftReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The executor's side of shared arguments: each value is read from its jar (a session artifact on
 * the executor's class path) by the first task that needs it and kept for the others. Tasks
 * running at once on the same JVM wait for one read rather than each reading its own copy. Kept
 * softly: a JVM short of memory may drop a value between tasks, and the next task reads it again
 * from the local jar (nothing crosses the network again).
 */
final class ExecutorSharedValues {
  private static final Map<String, Slot> VALUES = new ConcurrentHashMap<>();
  private static final AtomicLong READS = new AtomicLong();

  private ExecutorSharedValues() {}

  /** One value's place: its lock is held while the value is read. */
  private static final class Slot {
    private SoftReference<Object> value = new SoftReference<>(null);
  }

  /** The value {@code ref} names, read on first use in this JVM. */
  static Object get(SharedArgument ref) throws InvalidObjectException {
    Slot slot = VALUES.computeIfAbsent(ref.resource, r -> new Slot());
    synchronized (slot) {
      Object v = slot.value.get();
      if (v == null) {
        v = read(ref);
        slot.value = new SoftReference<>(v);
      }
      return v;
    }
  }

  /** How many values this JVM read from their jars (what crossed to it), for tests and diagnosis. */
  static long reads() {
    return READS.get();
  }

  private static Object read(SharedArgument ref) throws InvalidObjectException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = ExecutorSharedValues.class.getClassLoader();
    }
    InputStream found = loader.getResourceAsStream(ref.resource);
    if (found == null) {
      throw new InvalidObjectException("joblib4j: the shared argument " + ref.resource + " (" + ref.bytes
          + " bytes) is not among this Spark Connect session's artifacts on " + ConnectTask.workerName()
          + "; was the session's artifact folder cleared?");
    }
    try (ObjectInputStream in = new LoaderInput(found, loader)) {
      Object v = in.readObject();
      READS.incrementAndGet();
      return v;
    } catch (IOException | ClassNotFoundException e) {
      InvalidObjectException failure = new InvalidObjectException("joblib4j: the shared argument " + ref.resource
          + " could not be read on " + ConnectTask.workerName() + ": " + e);
      failure.initCause(e);
      throw failure;
    }
  }

  /** Java deserialization with the session's class loader, which holds the application's classes. */
  private static final class LoaderInput extends ObjectInputStream {
    private final ClassLoader loader;

    LoaderInput(InputStream in, ClassLoader loader) throws IOException {
      super(in);
      this.loader = loader;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
      try {
        return Class.forName(desc.getName(), false, loader);
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc);
      }
    }
  }
}
