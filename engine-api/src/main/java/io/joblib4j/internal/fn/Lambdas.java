package io.joblib4j.internal.fn;

import io.joblib4j.fn.FunctionAdapter;
import io.joblib4j.spi.support.SerializedLambdas;
import java.lang.invoke.SerializedLambda;
import java.util.Optional;

/**
 * Reads what a serializable lambda or method reference points at, through the {@link
 * SerializedLambda} the compiler generates for it. Used for readable task descriptions and, by
 * Memory, for function identity.
 */
public final class Lambdas {
  private Lambdas() {}

  private static final int MAX_ADAPTERS = 16;

  /**
   * The function {@code fn} stands for: {@code fn} itself, or what a {@link FunctionAdapter} (a
   * Scala function made into an {@code Fn1}, say) adapts or a {@link WrapsFunction} (a memoized
   * function) wraps, through any number of them.
   */
  public static Object unwrap(Object fn) {
    Object f = fn;
    for (int i = 0; i < MAX_ADAPTERS && (f instanceof FunctionAdapter || f instanceof WrapsFunction); i++) {
      Object inner = f instanceof FunctionAdapter a ? a.adaptedFunction() : ((WrapsFunction) f).wrappedFunction();
      if (inner == null || inner == f) {
        break;
      }
      f = inner;
    }
    return f;
  }

  /**
   * The serialized form of {@code fn} if it is a serializable lambda or method reference, empty for
   * an ordinary object (a class implementing the function interface).
   */
  public static Optional<SerializedLambda> serializedForm(Object fn) {
    return SerializedLambdas.of(fn);
  }

  /**
   * A short human name for a function: {@code Scorer.score} for a method reference or a Scala
   * method value ({@code Scorer.score _}), {@code slow} for a method value of a REPL cell's {@code
   * def}, {@code lambda in Demo.main} for a lambda, {@code lambda in features} for a Scala lambda
   * written in a cell's {@code val features}, the simple class name for anything else. REPL cell
   * numbers and wrappers ({@code $line7.$read$$iw}) never show.
   */
  public static String describe(Object function) {
    Object fn = unwrap(function);
    if (fn == null) {
      return "null";
    }
    ClassLoader loader = fn.getClass().getClassLoader();
    return serializedForm(fn).map(sl -> describe(sl, loader)).orElseGet(() -> className(fn.getClass().getName()));
  }

  private static String describe(SerializedLambda sl, ClassLoader loader) {
    String owner = sl.getImplClass();
    String method = sl.getImplMethodName();
    if (method.startsWith("lambda$")) {
      // javac names lambda bodies lambda$<enclosing method>$<n>
      String[] parts = method.split("\\$");
      String enclosing = parts.length > 1 ? parts[1] : "?";
      return "lambda in " + qualified(owner, enclosing);
    }
    if (method.startsWith("$anonfun$")) {
      Optional<Forwarders.Target> target = Forwarders.target(loader, owner, method, sl.getImplMethodSignature());
      if (target.isPresent() && !target.get().name().startsWith("$anonfun$")) {
        return qualified(target.get().owner(), target.get().name());
      }
      String lambda = target.map(Forwarders.Target::name).orElse(method);
      return "lambda in " + qualified(target.map(Forwarders.Target::owner).orElse(owner), scalaEnclosing(lambda));
    }
    if (method.equals("<init>")) {
      return className(owner) + "::new";
    }
    return qualified(owner, method);
  }

  /** {@code Owner.method}, or just {@code method} for a REPL cell's top-level definitions. */
  private static String qualified(String owner, String method) {
    String name = method.replaceAll("\\$\\d+$", ""); // Scala's local defs: slow$1
    String o = className(owner);
    return o.isEmpty() ? name : o + "." + name;
  }

  /** Scala names lambda bodies $anonfun$<enclosing>$<n>, with $adapted on their boxing bridge. */
  private static String scalaEnclosing(String method) {
    String s = method.substring("$anonfun$".length()).replaceAll("\\$adapted$", "").replaceAll("\\$\\d+$", "");
    return s.isEmpty() ? "?" : s.replace("$", ".");
  }

  /**
   * A class's short name: {@code Scorer} for {@code com.acme.Scorer}, a Scala {@code object}'s
   * {@code Scorer$} and a REPL cell's {@code $line7.$read$$iw$Scorer$}; {@code math} for Scala's
   * {@code scala.math.package$}; empty for a REPL cell's wrapper.
   */
  private static String className(String binaryName) {
    String dotted = binaryName.replace('/', '.');
    if (ReplNames.isReplClass(dotted)) {
      return ReplNames.userName(dotted);
    }
    if (dotted.endsWith(".package$")) {
      String pkg = dotted.substring(0, dotted.length() - ".package$".length());
      return pkg.substring(pkg.lastIndexOf('.') + 1);
    }
    String s = dotted.substring(dotted.lastIndexOf('.') + 1);
    int lambda = s.indexOf("$$Lambda");
    if (lambda >= 0) {
      s = s.substring(0, lambda);
    }
    if (s.endsWith("$") && s.length() > 1) {
      s = s.substring(0, s.length() - 1);
    }
    return s.replace('$', '.');
  }
}
