package io.joblib4j.spark.internal;

import io.joblib4j.Delayed;
import io.joblib4j.spi.Batch;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.broadcast.Broadcast;

/**
 * Ships each large argument of a call once: the first batch that uses an argument over {@code
 * maxNbytes} turns it into a Spark broadcast, every later batch refers to the same broadcast, and
 * the broadcasts are destroyed when the call ends.
 *
 * <p>Arguments are recognised by identity ({@link SharingKey}). The seam is there so that the
 * key can become a content hash ({@code Joblib.hash}) and two equal arrays built separately share
 * one broadcast too.
 */
final class ArgumentSharing {
  /** How an argument is recognised as one already shared. */
  interface SharingKey {
    Object keyOf(Object argument);
  }

  /** By identity: the same object, passed to many tasks. */
  static final SharingKey BY_IDENTITY = arg -> new IdentityKey(arg);

  private record IdentityKey(Object value) {
    @Override
    public boolean equals(Object o) {
      return o instanceof IdentityKey k && k.value == value;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(value);
    }
  }

  private final long maxNbytes;
  private final SharingKey keys;
  private final Function<Object, Broadcast<Object>> broadcaster;
  private final Map<Object, SharedArgument> shared = new java.util.HashMap<>();
  /** Arguments already measured and found small, so a reused medium-size object is measured once. */
  private final Map<Object, Boolean> small = new IdentityHashMap<>();
  private final List<Broadcast<Object>> broadcasts = new ArrayList<>();

  ArgumentSharing(long maxNbytes, SharingKey keys, Function<Object, Broadcast<Object>> broadcaster) {
    this.maxNbytes = maxNbytes;
    this.keys = keys;
    this.broadcaster = broadcaster;
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
        SharedArgument ref = shared.get(keys.keyOf(arg));
        if (ref == null) {
          if (!SizeEstimate.exceeds(arg, maxNbytes)) {
            if (SizeEstimate.knownSize(arg) < 0) {
              small.put(arg, Boolean.TRUE); // it took a serialization to find out: remember
            }
            continue;
          }
          Broadcast<Object> b = broadcaster.apply(arg);
          long known = SizeEstimate.knownSize(arg);
          ChannelStats.broadcastMade(known >= 0 ? known : maxNbytes);
          broadcasts.add(b);
          ref = new SharedArgument(b);
          shared.put(keys.keyOf(arg), ref);
        }
        out.put(arg, ref);
      }
    }
    return out;
  }

  /** Frees the broadcasts on the executors and the driver; the call is over. */
  synchronized void release() {
    for (Broadcast<Object> b : broadcasts) {
      try {
        b.destroy();
      } catch (RuntimeException ignored) {
        // the context may be stopping; its own cleanup frees the blocks
      }
    }
    broadcasts.clear();
    shared.clear();
    small.clear();
  }
}
