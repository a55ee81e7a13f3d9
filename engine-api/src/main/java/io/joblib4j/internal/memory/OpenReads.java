package io.joblib4j.internal.memory;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The entries this JVM is reading at the moment, so that pruning here never deletes one under a
 * reader. (A reader in another JVM whose entry is pruned meanwhile finds it gone or cut and
 * recomputes; on local disk a file already opened or mapped stays readable after its deletion.)
 */
final class OpenReads {
  private static final ConcurrentHashMap<String, Integer> READING = new ConcurrentHashMap<>();

  private OpenReads() {}

  static void begin(String location, String entry) {
    READING.merge(location + "|" + entry, 1, Integer::sum);
  }

  static void end(String location, String entry) {
    READING.computeIfPresent(location + "|" + entry, (k, n) -> n == 1 ? null : n - 1);
  }

  static boolean reading(String location, String entry) {
    return READING.containsKey(location + "|" + entry);
  }
}
