package io.joblib4j.internal.worker;

import io.joblib4j.fn.Action;
import io.joblib4j.spi.worker.WireFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which initializers have run in this worker JVM. Each runs once per JVM, before the first batch
 * that brings it, however many worker loops the JVM runs (a Spark executor runs one per task slot
 * and call); other loops wait meanwhile. Initializers are told apart by their serialized form, so
 * the same initializer given to several calls still runs once. Only a successful run counts: a
 * failed initializer is tried again by the next batch that brings it.
 */
final class Initializers {
  private static final Set<InitKey> DONE = ConcurrentHashMap.newKeySet();

  private Initializers() {}

  static void runOnce(byte[] serialized, WireFormat format, ClassLoader loader) throws Exception {
    InitKey key = new InitKey(serialized);
    if (DONE.contains(key)) {
      return;
    }
    synchronized (Initializers.class) {
      if (DONE.contains(key)) {
        return;
      }
      Action initializer;
      try (WireInput in = new WireInput(serialized, format, loader)) {
        initializer = (Action) in.readObject();
      }
      initializer.invoke();
      DONE.add(key);
    }
  }
}
