package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import java.util.HexFormat;

/**
 * Incremental hashing for callers that hash several parts (a function's identity, its code version,
 * captured values, call arguments) without building a composite value:
 *
 * <pre>{@code
 * String key = StreamingHasher.create(HashAlgorithm.XXH3_128)
 *     .putString(functionName).putLong(codeVersion).putValue(capturedArgs).putValue(callArgs)
 *     .hex();
 * }</pre>
 *
 * <p>Each {@code put} appends that part's tagged encoding, the same one {@link
 * io.joblib4j.Joblib#hash} uses, so parts cannot run into each other ({@code "ab","c"} differs from
 * {@code "a","bc"}). A single {@code putValue(x).hex()} equals {@code Joblib.hash(x, algorithm)}. Not
 * thread-safe; {@link #hex()} ends the hasher.
 */
public final class StreamingHasher {
  private final ValueHasher walker;
  private final HashSink sink;
  private boolean done;

  private StreamingHasher(HashAlgorithm algorithm) {
    walker = new ValueHasher(algorithm);
    sink = walker.sink(0);
  }

  public static StreamingHasher create(HashAlgorithm algorithm) {
    return new StreamingHasher(algorithm);
  }

  /** Appends any value, exactly as {@code Joblib.hash} walks it. */
  public StreamingHasher putValue(Object value) {
    check();
    walker.walk(value, sink);
    return this;
  }

  /** Same as {@code putValue(s)}, for a String. */
  public StreamingHasher putString(String s) {
    return putValue(s);
  }

  /** Same as {@code putValue(v)}, for a long. */
  public StreamingHasher putLong(long v) {
    return putValue(v);
  }

  /** Same as {@code putValue(bytes)}, for a byte array (hashed raw). */
  public StreamingHasher putBytes(byte[] bytes) {
    return putValue(bytes);
  }

  /** The hex digest of everything appended; the hasher cannot be used afterwards. */
  public String hex() {
    check();
    done = true;
    return HexFormat.of().formatHex(sink.finish());
  }

  private void check() {
    if (done) {
      throw new IllegalStateException("this StreamingHasher has already produced its digest");
    }
  }
}
