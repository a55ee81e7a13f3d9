package io.joblib4j.spark.connect.internal;

import java.io.ObjectStreamException;
import java.io.Serial;
import java.io.Serializable;

/**
 * What a batch carries instead of a large argument under Spark Connect: the name of the resource
 * that holds it, inside a jar the client added to the session once ({@link ConnectSharer}). On an
 * executor it resolves to the value, read from that jar once per executor JVM ({@link
 * ExecutorSharedValues}) and then served from memory to every later task that uses it.
 */
final class SharedArgument implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** The resource inside the shared jar: the value, Java-serialized. */
  final String resource;
  /** Its serialized size, for messages. */
  final long bytes;

  SharedArgument(String resource, long bytes) {
    this.resource = resource;
    this.bytes = bytes;
  }

  @Serial
  private Object readResolve() throws ObjectStreamException {
    return ExecutorSharedValues.get(this);
  }
}
