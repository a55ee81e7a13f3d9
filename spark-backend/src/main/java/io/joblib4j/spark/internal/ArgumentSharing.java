package io.joblib4j.spark.internal;

import io.joblib4j.Delayed;
import io.joblib4j.Joblib;
import io.joblib4j.spi.Batch;
import io.joblib4j.spi.worker.ArgumentSharer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.broadcast.Broadcast;

/**
 * The spark backend's {@link ArgumentSharer}: ships each large argument of a call once. The first
 * batch that uses an argument over {@code maxNbytes} turns it into a Spark broadcast, every later
 * batch refers to the same broadcast, and the broadcasts are destroyed when the call ends.
 *
 * <p>An argument is recognised first by identity (free), then by its content hash ({@code
 * Joblib.hash}), computed only for arguments already found large: so two equal arrays built
 * separately share one broadcast too. A value the hasher cannot read is shared by identity alone.
 */
final class ArgumentSharing implements ArgumentSharer {
  /** How a large argument is recognised as one already shared, beyond identity. */
  interface SharingKey {
    /** A key equal for arguments that may share one broadcast, or null for identity only. */
    Object keyOf(Object argument);
  }

  /** By content: {@code Joblib.hash}, stable for equal values. */
  static final SharingKey BY_CONTENT = arg -> {
    try {
      return Joblib.hash(arg);
    } catch (RuntimeException | LinkageError unhashable) {
      // a value the hasher cannot read, or its library missing from a hand-made --jars list
      return null;
    }
  };

  /** By identity alone: the same object, passed to many tasks. */
  static final SharingKey BY_IDENTITY = arg -> null;

  static final int MAX_REMEMBERED_SMALL = 4096;

  private final long maxNbytes;
  private final SharingKey keys;
  private final Function<Object, Broadcast<Object>> broadcaster;
  private final Map<Object, SharedArgument> byIdentity = new IdentityHashMap<>();
  private final Map<Object, SharedArgument> byKey = new java.util.HashMap<>();
  /**
   * Arguments already measured and found small, so a reused medium-size object is measured once.
   * Only those that took a serialization to measure, and at most {@link #MAX_REMEMBERED_SMALL}: a
   * call streaming millions of tasks must not keep an entry (and the argument) per task.
   */
  private final Map<Object, Boolean> small = new IdentityHashMap<>();
  private final List<Broadcast<Object>> broadcasts = new ArrayList<>();

  ArgumentSharing(long maxNbytes, SharingKey keys, Function<Object, Broadcast<Object>> broadcaster) {
    this.maxNbytes = maxNbytes;
    this.keys = keys;
    this.broadcaster = broadcaster;
  }

  /** Each large argument of {@code batch}, by identity, written as the reference to its broadcast. */
  @Override
  public Replacer prepare(Batch batch) {
    Map<Object, Object> replacements = replacementsFor(batch);
    if (replacements.isEmpty()) {
      return Replacer.NONE;
    }
    return o -> replacements.getOrDefault(o, o);
  }

  /**
   * The replacements to apply when serializing {@code batch}: each large argument, by identity,
   * mapped to the reference to its broadcast. Empty when sharing is disabled.
   */
  synchronized Map<Object, Object> replacementsFor(Batch batch) {
    if (maxNbytes < 0) {
      return Map.of();
    }
    Map<Object, Object> out = new IdentityHashMap<>();
    for (Delayed<?> task : batch.tasks()) {
      for (Object arg : task.arguments()) {
        if (arg == null || out.containsKey(arg) || small.containsKey(arg)) {
          continue;
        }
        SharedArgument ref = byIdentity.get(arg);
        if (ref == null) {
          if (!SizeEstimate.exceeds(arg, maxNbytes)) {
            if (!SizeEstimate.alwaysSmall(arg) && SizeEstimate.knownSize(arg) < 0
                && small.size() < MAX_REMEMBERED_SMALL) {
              small.put(arg, Boolean.TRUE); // it took a serialization to find out: remember
            }
            continue;
          }
          Object key = keys.keyOf(arg);
          ref = key == null ? null : byKey.get(key);
          if (ref == null) {
            Broadcast<Object> b = broadcaster.apply(arg);
            long known = SizeEstimate.knownSize(arg);
            ChannelStats.broadcastMade(known >= 0 ? known : maxNbytes);
            broadcasts.add(b);
            ref = new SharedArgument(b);
            if (key != null) {
              byKey.put(key, ref);
            }
          }
          byIdentity.put(arg, ref);
        }
        out.put(arg, ref);
      }
    }
    return out;
  }

  /** Frees the broadcasts on the executors and the driver; the call is over. */
  @Override
  public synchronized void close() {
    for (Broadcast<Object> b : broadcasts) {
      try {
        b.destroy();
      } catch (RuntimeException ignored) {
        // the context may be stopping; its own cleanup frees the blocks
      }
    }
    broadcasts.clear();
    byIdentity.clear();
    byKey.clear();
    small.clear();
  }
}
