package io.joblib4j;

import io.joblib4j.internal.hash.ValueHasher;
import io.joblib4j.internal.memory.Fingerprints;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What {@link Memory} keys a function's code by, as stable strings, for any function object: a
 * joblib4j {@code FnN}, a serializable lambda or method reference, a Scala function, or an object
 * implementing a functional interface (a Spark {@code MapFunction} or {@code UDF1}, an {@code
 * Aggregator}). Equal code and captured values give equal strings in every JVM and run; other
 * modules use it to key code as Memory does (the stage cache keys the UDFs and typed operations of
 * Spark plans with it).
 *
 * <pre>{@code
 * FunctionFingerprint f = FunctionFingerprint.of((Fn1<Integer, Integer>) Scorer::score);
 * f.identity();     // "com.acme.Scorer#score(I)I"
 * f.codeVersion();  // 32 hex digits: the bytecode of score and of your code it reaches
 * f.capturedHash(); // 32 hex digits: the values it captured, hashed like Joblib.hash
 * f.hash();         // all of it in one key
 * }</pre>
 *
 * <p>For a lambda, method reference, {@code FnN} object or adapted Scala function the identity,
 * code version and captured-values hash are exactly Memory's (see the README's "What gives a call
 * a new entry"). For any other object the identity is its class, and the code version covers every
 * method its class and its own superclasses declare (up to the JDK's, Scala's or Spark's). Functions
 * held among the captured values (the Java UDF a Spark wrapper lambda holds, say) are fingerprinted
 * too, and their code is part of {@link #hash()}, though not of {@link #capturedHash()}, which stays
 * Memory's.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class FunctionFingerprint {
  private final String identity;
  private final String name;
  private final String codeVersion;
  private final String capturedHash;
  private final String nestedCode;

  private FunctionFingerprint(Fingerprints.Parts parts) {
    this.identity = parts.identity();
    this.name = parts.name();
    this.codeVersion = parts.codeVersion();
    this.capturedHash = parts.capturedHash();
    this.nestedCode = parts.nestedCode();
  }

  /**
   * The fingerprint of {@code function}. Its captured values are hashed as they are now.
   *
   * @param function any function object; an adapter ({@link io.joblib4j.fn.FunctionAdapter}) counts
   *     as the function it adapts
   * @return its fingerprint
   * @throws NullPointerException if {@code function} is null
   * @throws IllegalArgumentException if a captured value cannot be hashed (a thread, a lock); the
   *     message names its path and what to do
   */
  public static FunctionFingerprint of(Object function) {
    return new FunctionFingerprint(Fingerprints.of(Objects.requireNonNull(function, "function")));
  }

  /**
   * Who the function is, independent of where its jar lives: the implementation class, method and
   * descriptor for a lambda or method reference ({@code com.acme.Scorer#score(I)I}), the class and
   * its {@code invoke} for an {@code FnN} object, the class name for any other object.
   *
   * @return the identity
   */
  public String identity() {
    return identity;
  }

  /**
   * A short name for people: {@code Scorer.score}, {@code lambda in Pipeline.clean}.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The hash of the function's bytecode and of the user code it reaches, as Memory computes it.
   *
   * @return 32 hex digits, or {@code "unknown"} when the class file cannot be read (classes made at
   *     run time)
   */
  public String codeVersion() {
    return codeVersion;
  }

  /**
   * Whether {@link #codeVersion()} could be computed.
   *
   * @return false if the function's class file could not be read
   */
  public boolean codeKnown() {
    return !codeVersion.equals("unknown");
  }

  /**
   * The hash of the values the function captured (a lambda's captured variables, a bound method
   * reference's object, an object's fields), as Memory computes it.
   *
   * @return 32 hex digits
   */
  public String capturedHash() {
    return capturedHash;
  }

  /**
   * One key for all of it: identity, code version, captured values, and the code of the functions
   * among the captured values.
   *
   * @return 32 hex digits
   */
  public String hash() {
    return ValueHasher.hex(java.util.List.of(identity, codeVersion, capturedHash, nestedCode), HashAlgorithm.XXH3_128);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FunctionFingerprint f && identity.equals(f.identity) && codeVersion.equals(f.codeVersion)
        && capturedHash.equals(f.capturedHash) && nestedCode.equals(f.nestedCode);
  }

  @Override
  public int hashCode() {
    return Objects.hash(identity, codeVersion, capturedHash, nestedCode);
  }

  /**
   * For people.
   *
   * @return {@code Scorer.score (com.acme.Scorer#score(I)I, code 1a2b..., captured 3c4d...)}
   */
  @Override
  public String toString() {
    return name + " (" + identity + ", code " + codeVersion + ", captured " + capturedHash + ")";
  }
}
