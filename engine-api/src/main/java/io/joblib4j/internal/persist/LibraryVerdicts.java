package io.joblib4j.internal.persist;

import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.KryoException;

/**
 * Tells bad bytes from bugs among the unchecked exceptions that come out of Kryo and Java
 * deserialization. The JDK's classes reject a malformed serial form with whatever their code
 * throws (an {@code InternalError} from the immutable collections, a {@code DateTimeException},
 * a {@code NullPointerException} in {@code Hashtable.readObject}), Kryo's own code does the same
 * (an index out of bounds for a reference that was never read), and Kryo wraps what its field
 * serializers meet in a {@code KryoException}: those are a verdict on the bytes, and the load
 * reports a corrupt file. An exception thrown by any other code on the way (joblib4j's own
 * serializers and readers, or a class's own {@code readObject}) is not a property of the bytes: it
 * must surface as itself, or a bug would look like a damaged file.
 */
final class LibraryVerdicts {
  /** Kryo's packages, as this build names them (the Spark bundle relocates them). */
  private static final String KRYO = Kryo.class.getPackageName() + ".";

  private LibraryVerdicts() {}

  /**
   * What to rethrow of {@code e}, which came out of the library that {@code caller} called: null
   * when it is the library's verdict on the bytes; otherwise the error itself, or for a
   * {@code KryoException} the error it wraps (an {@code OutOfMemoryError} or {@code
   * StackOverflowError}, or an exception thrown by code that is neither the JDK nor Kryo).
   */
  static Throwable bug(Throwable e, Class<?> caller) {
    if (!(e instanceof KryoException)) {
      return thrownByLibraries(e, caller) ? null : e;
    }
    Throwable cause = e.getCause();
    while (cause instanceof KryoException) {
      cause = cause.getCause();
    }
    if (cause instanceof VirtualMachineError) {
      return cause;
    }
    boolean unchecked = cause instanceof RuntimeException || cause instanceof Error;
    return unchecked && !thrownByLibraries(cause, caller) ? cause : null;
  }

  /**
   * Whether every frame of {@code t}'s stack above the first frame of {@code caller} belongs to the
   * JDK or to Kryo: then the libraries threw it reading the bytes, with no other code in between.
   * An exception without a trace (the JVM leaves it out when compiled code throws the same
   * exception often, unless run with {@code -XX:-OmitStackTraceInFastThrow}, as the fuzzers are)
   * is counted as theirs: hostile files reach those hot paths, and a load must not fail untyped.
   */
  static boolean thrownByLibraries(Throwable t, Class<?> caller) {
    StackTraceElement[] frames = t.getStackTrace();
    if (frames.length == 0) {
      return true;
    }
    String callerName = caller.getName();
    for (StackTraceElement frame : frames) {
      String c = frame.getClassName();
      if (c.equals(callerName)) {
        return true;
      }
      if (!isLibrary(c)) {
        return false;
      }
    }
    return false;
  }

  private static boolean isLibrary(String className) {
    return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
        || className.startsWith(KRYO);
  }

  /** Rethrows {@code t}, which is unchecked. */
  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    throw (Error) t;
  }
}
