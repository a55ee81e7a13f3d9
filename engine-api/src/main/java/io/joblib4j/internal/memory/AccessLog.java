package io.joblib4j.internal.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this JVM last recorded an access to each entry: a hit records one at most once a minute
 * per entry, so that ordering entries for {@code reduceSize} costs a hit nothing most of the time
 * (a store's touch is a system call, or a NameNode round trip on HDFS).
 */
final class AccessLog {
  private static final Duration INTERVAL = Duration.ofMinutes(1);
  private static final int MAX_REMEMBERED = 100_000;
  private static final Map<String, Instant> LAST = new ConcurrentHashMap<>();

  private AccessLog() {}

  /** Whether an access to {@code entry} at {@code now} should be recorded in the store. */
  static boolean due(String location, String entry, Instant now) {
    String id = location + "|" + entry;
    Instant last = LAST.get(id);
    if (last != null && !now.isBefore(last) && Duration.between(last, now).compareTo(INTERVAL) < 0) {
      return false;
    }
    if (LAST.size() >= MAX_REMEMBERED) {
      LAST.clear(); // forgetting only costs an extra touch
    }
    LAST.put(id, now);
    return true;
  }
}
