package io.joblib4j.internal.fn;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Reads what a serializable lambda or method reference points at, through the {@link
 * SerializedLambda} the compiler generates for it. Used for readable task descriptions and, by
 * Memory, for function identity.
 */
public final class Lambdas {
  private Lambdas() {}

  /**
   * The serialized form of {@code fn} if it is a serializable lambda or method reference, empty for
   * an ordinary object (a class implementing the function interface).
   */
  public static Optional<SerializedLambda> serializedForm(Object fn) {
    if (!(fn instanceof Serializable) || !fn.getClass().isSynthetic()) {
      return Optional.empty();
    }
    try {
      Method writeReplace = fn.getClass().getDeclaredMethod("writeReplace");
      writeReplace.setAccessible(true);
      Object replacement = writeReplace.invoke(fn);
      return replacement instanceof SerializedLambda sl ? Optional.of(sl) : Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * A short human name for a function: {@code Scorer.score} for a method reference, {@code
   * lambda in Demo.main} for a lambda, the simple class name for anything else.
   */
  public static String describe(Object fn) {
    if (fn == null) {
      return "null";
    }
    return serializedForm(fn).map(Lambdas::describe).orElseGet(() -> simpleName(fn.getClass().getName()));
  }

  private static String describe(SerializedLambda sl) {
    String owner = simpleName(sl.getImplClass().replace('/', '.'));
    String method = sl.getImplMethodName();
    if (method.startsWith("lambda$")) {
      // javac names lambda bodies lambda$<enclosing method>$<n>
      String[] parts = method.split("\\$");
      String enclosing = parts.length > 1 ? parts[1] : "?";
      return "lambda in " + owner + "." + enclosing;
    }
    if (method.equals("<init>")) {
      return owner + "::new";
    }
    return owner + "." + method;
  }

  private static String simpleName(String binaryName) {
    String s = binaryName.substring(binaryName.lastIndexOf('.') + 1);
    int lambda = s.indexOf("$$Lambda");
    if (lambda >= 0) {
      s = s.substring(0, lambda);
    }
    return s.replace('$', '.');
  }
}
