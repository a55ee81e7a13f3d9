package io.joblib4j.spi.worker;

import java.security.MessageDigest;
import org.apiguardian.api.API;

/**
 * What a worker says first when it connects to its parent: who it is, and the secret token that
 * proves the parent started it. A parent listens on a port any local user (or, for Spark, any
 * host) can reach, so it reads nothing else from a connection until the token checks out.
 *
 * @param version the protocol version the worker speaks ({@link #VERSION} for this joblib4j)
 * @param token the secret the parent gave the worker (through its environment, or inside a Spark task)
 * @param scope what the worker serves, e.g. a call id when one listener serves several calls; may be ""
 * @param worker the worker's name for messages, e.g. {@code "process 4711"}
 * @param pid the worker's process id
 * @param maxHeapBytes the worker JVM's maximum heap
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Hello(int version, byte[] token, String scope, String worker, long pid, long maxHeapBytes) {
  /** The protocol version of this joblib4j; a worker of another version cannot be served. */
  public static final int VERSION = 4;

  /**
   * Whether the worker presented {@code expected}, compared in constant time.
   *
   * @param expected the token the parent gave
   * @return whether the tokens match
   */
  public boolean proves(byte[] expected) {
    return expected != null && MessageDigest.isEqual(token, expected);
  }

  /**
   * Whether the worker speaks this joblib4j's protocol.
   *
   * @return whether the versions match
   */
  public boolean compatible() {
    return version == VERSION;
  }
}
