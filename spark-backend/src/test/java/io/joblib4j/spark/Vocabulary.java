package io.joblib4j.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The seed's shape of a worker initializer's job: a global value that must be set up inside each
 * executor JVM (a model, a native library, a dictionary) before tasks can use it. Without the
 * initializer, {@link #current} is null on an executor and tasks fail.
 */
final class Vocabulary {
  /** How often {@link #load} ran in this JVM. */
  static final AtomicInteger LOADS = new AtomicInteger();
  static volatile Vocabulary current;

  private final Map<String, Integer> ids = new HashMap<>();

  private Vocabulary() {
    String[] words = {"alpha", "beta", "gamma", "delta"};
    for (int i = 0; i < words.length; i++) {
      ids.put(words[i], i);
    }
  }

  static void load() {
    LOADS.incrementAndGet();
    current = new Vocabulary();
  }

  int id(String word) {
    return ids.getOrDefault(word, -1);
  }
}
