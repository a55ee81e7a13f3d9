package io.joblib4j.internal.worker;

import java.util.Arrays;

/**
 * An initializer by its serialized form. Two calls whose initializers serialize to the same bytes
 * (the same lambda with the same captured values) share the fact that a worker ran it, so a
 * reused worker runs it once, not once per call.
 */
final class InitKey {
  private final byte[] bytes;
  private final int hash;

  InitKey(byte[] bytes) {
    this.bytes = bytes;
    this.hash = Arrays.hashCode(bytes);
  }

  byte[] bytes() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InitKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
