package io.joblib4j.internal.code;

/**
 * A method one method's code refers to: called, turned into a lambda or method reference, or (for
 * a static field read or written) the static initializer of the field's class.
 *
 * @param owner the internal name of the class named in the instruction ({@code com/acme/Scorer})
 */
record MethodRef(Kind kind, String owner, String name, String desc) {
  enum Kind {
    /** A lambda body of the referring method's own class, hashed where the lambda is made. */
    LAMBDA,
    /** A call, a method reference or a bootstrap method. */
    CALL,
    /** The static initializer of a class whose static field is read or written. */
    STATIC_INIT
  }

  /** {@code com/acme/Scorer.score(I)D}. */
  String key() {
    return owner + "." + name + desc;
  }
}
