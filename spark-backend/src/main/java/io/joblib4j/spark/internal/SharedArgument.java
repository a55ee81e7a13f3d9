package io.joblib4j.spark.internal;

import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;
import org.apache.spark.broadcast.Broadcast;

/**
 * What a batch carries instead of a large argument: a reference to the Spark broadcast that holds
 * it. On the executor it resolves to the broadcast's value, which Spark fetches and deserializes
 * once per executor JVM and then serves from memory to every task of the call.
 */
final class SharedArgument implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  private final Broadcast<Object> broadcast;

  SharedArgument(Broadcast<Object> broadcast) {
    this.broadcast = broadcast;
  }

  @Serial
  private Object readResolve() throws ObjectStreamException {
    Object held = broadcast.value();
    return held instanceof BroadcastHolder h ? h.value : held;
  }
}
