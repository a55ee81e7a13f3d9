package io.joblib4j.spark.internal;

import io.joblib4j.fn.Action;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which worker initializers have run in this executor JVM. Each runs once per JVM, before the
 * first joblib4j task that needs it, whatever the number of task slots, calls or batches; a new
 * executor (after a lost one) starts with an empty set and runs it again.
 *
 * <p>Initializers are told apart by the digest of their serialized form, so the same initializer
 * given to several calls (a new instance on every deserialization) still runs once.
 */
final class ExecutorInitializers {
  private static final Set<String> DONE = ConcurrentHashMap.newKeySet();

  private ExecutorInitializers() {}

  /** Runs {@code initializer} unless one with {@code digest} already ran here; other slots wait. */
  static void ensure(String digest, Action initializer) throws Exception {
    if (DONE.contains(digest)) {
      return;
    }
    synchronized (ExecutorInitializers.class) {
      if (DONE.contains(digest)) {
        return;
      }
      initializer.invoke();
      DONE.add(digest); // only after success: a failed initializer is tried again by the next call
    }
  }
}
