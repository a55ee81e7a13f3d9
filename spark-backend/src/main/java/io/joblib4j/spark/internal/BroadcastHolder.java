package io.joblib4j.spark.internal;

import java.io.Serial;
import java.io.Serializable;

/**
 * What a broadcast holds: the shared argument, wrapped. Spark closes an {@link AutoCloseable}
 * value when its broadcast is destroyed (MemoryStore removes deserialized blocks that way), and in
 * local mode the driver's block is the caller's own object — an {@code NDArray} argument would be
 * closed under the caller at the end of the call. The wrapper is not closeable, so nothing is.
 */
final class BroadcastHolder implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  final Object value;

  BroadcastHolder(Object value) {
    this.value = value;
  }
}
