package io.joblib4j.internal.memory;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.fn.Fn0;
import io.joblib4j.fn.Fn1;
import io.joblib4j.fn.Fn2;
import io.joblib4j.fn.Fn3;
import io.joblib4j.fn.Fn4;
import io.joblib4j.fn.Fn5;
import io.joblib4j.fn.Fn6;
import io.joblib4j.fn.FunctionAdapter;
import io.joblib4j.internal.code.CodeVersion;
import io.joblib4j.internal.fn.Lambdas;
import io.joblib4j.internal.hash.StreamingHasher;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.objectweb.asm.Type;

/**
 * The parts of {@code io.joblib4j.FunctionFingerprint}: Memory's function identity, code version and
 * captured-values hash for any function object, so that other modules (the stage cache keying the
 * UDFs and typed operations of Spark plans, Memory's explain) key code exactly as Memory does
 * without naming Memory's internals.
 *
 * <ul>
 *   <li>A serializable lambda or method reference, a joblib4j {@code FnN} object, or an adapter of a
 *       Scala function: exactly Memory's {@link FunctionIdentity} and captured-values hash.
 *   <li>Any other object (a class implementing a Spark {@code MapFunction} or {@code UDF1}, an
 *       {@code Aggregator}): identified by its class; its code version covers every method its class
 *       (and its superclasses below the JDK, Scala and Spark) declares, each walked as Memory walks a
 *       function; its captured values are the object itself (its fields).
 * </ul>
 *
 * Functions among the captured values (a Java UDF that Spark's wrapper lambda holds, a lambda a
 * lambda captured) are fingerprinted too, to a depth of {@link #MAX_NESTING}: their code versions
 * make up {@link Parts#nestedCode()}.
 */
public final class Fingerprints {
  /** How deep functions captured by functions are followed. */
  static final int MAX_NESTING = 4;
  private static final List<String> LIBRARY_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "scala.",
      "org.apache.spark.");
  private static final List<String> FUNCTION_TYPES = List.of("io.joblib4j.fn.", "scala.Function",
      "scala.runtime.AbstractFunction", "scala.PartialFunction", "org.apache.spark.api.java.function.",
      "org.apache.spark.sql.api.java.UDF", "org.apache.spark.sql.expressions.Aggregator",
      "org.apache.spark.sql.expressions.UserDefinedAggregateFunction", "java.util.function.");

  private Fingerprints() {}

  /**
   * A function's fingerprint, as stable strings.
   *
   * @param identity who it is: {@code com.acme.Pipeline#clean(Lorg/apache/spark/sql/Dataset;)Lorg/apache/spark/sql/Dataset;}
   * @param name a short name for people: {@code Pipeline.clean}
   * @param codeVersion 32 hex digits, or {@code "unknown"} when its class file cannot be read
   * @param capturedHash 32 hex digits: Memory's hash of the values it captured
   * @param nestedCode 32 hex digits: the code versions of the functions among its captured values
   */
  public record Parts(String identity, String name, String codeVersion, String capturedHash, String nestedCode) {}

  /**
   * The fingerprint of {@code function}.
   *
   * @throws IllegalArgumentException naming the path to a captured value that cannot be hashed
   */
  public static Parts of(Object function) {
    Objects.requireNonNull(function, "function");
    return of(Lambdas.unwrap(function), 0, new IdentityHashMap<>());
  }

  private static Parts of(Object fn, int depth, Map<Object, Boolean> visiting) {
    visiting.put(fn, Boolean.TRUE);
    try {
      Optional<SerializedLambda> form = Lambdas.serializedForm(fn);
      int arity = form.map(sl -> Type.getArgumentTypes(sl.getFunctionalInterfaceMethodSignature()).length)
          .orElseGet(() -> fnArity(fn));
      if (arity >= 0) {
        FunctionIdentity id = FunctionIdentity.of(fn, arity);
        List<Object> captured = form.isPresent() ? id.captured() : fieldValues(fn);
        return new Parts(id.id(), id.name(), id.codeVersion(), CallKeys.capturedHash(id),
            nestedCode(captured, depth, visiting));
      }
      Class<?> cls = fn.getClass();
      String captured = StreamingHasher.create(HashAlgorithm.XXH3_128).putValue(List.of(fn)).hex();
      return new Parts(cls.getName(), Lambdas.describe(fn), classVersion(cls), captured,
          nestedCode(fieldValues(fn), depth, visiting));
    } finally {
      visiting.remove(fn);
    }
  }

  /** The arity of a joblib4j {@code FnN} or Scala {@code FunctionN} object, or -1 for anything else. */
  private static int fnArity(Object fn) {
    if (fn instanceof Fn0<?>) {
      return 0;
    }
    if (fn instanceof Fn1<?, ?>) {
      return 1;
    }
    if (fn instanceof Fn2<?, ?, ?>) {
      return 2;
    }
    if (fn instanceof Fn3<?, ?, ?, ?>) {
      return 3;
    }
    if (fn instanceof Fn4<?, ?, ?, ?, ?>) {
      return 4;
    }
    if (fn instanceof Fn5<?, ?, ?, ?, ?, ?>) {
      return 5;
    }
    if (fn instanceof Fn6<?, ?, ?, ?, ?, ?, ?>) {
      return 6;
    }
    return -1;
  }

  /**
   * One version for a whole class: every method it and its own superclasses declare (bridges and
   * compiler-made methods aside, which the walk reaches from the methods that use them), in name
   * order, each walked as Memory walks a function.
   */
  private static String classVersion(Class<?> cls) {
    StreamingHasher h = StreamingHasher.create(HashAlgorithm.XXH3_128);
    boolean known = false;
    for (Class<?> c = cls; c != null && c != Object.class && (c == cls || !isLibrary(c.getName()));
        c = c.getSuperclass()) {
      Method[] methods = c.getDeclaredMethods();
      Arrays.sort(methods, Comparator.comparing((Method m) -> m.getName() + Type.getMethodDescriptor(m)));
      for (Method m : methods) {
        if (m.isBridge() || m.isSynthetic() || Modifier.isAbstract(m.getModifiers())) {
          continue;
        }
        String desc = Type.getMethodDescriptor(m);
        Optional<CodeVersion> v = CodeVersion.of(c.getClassLoader(), c.getName(), m.getName(), desc);
        known |= v.isPresent();
        h.putString(m.getName() + desc).putString(v.map(CodeVersion::hex).orElse(FunctionIdentity.UNKNOWN_VERSION));
      }
    }
    return known ? h.hex() : FunctionIdentity.UNKNOWN_VERSION;
  }

  /** The code versions of the functions among {@code values}, followed {@link #MAX_NESTING} deep. */
  private static String nestedCode(List<Object> values, int depth, Map<Object, Boolean> visiting) {
    StreamingHasher h = StreamingHasher.create(HashAlgorithm.XXH3_128);
    int count = 0;
    if (depth < MAX_NESTING) {
      for (Object v : values) {
        Object f = v == null ? null : Lambdas.unwrap(v);
        if (f == null || visiting.containsKey(f) || !isFunction(f)) {
          continue;
        }
        Parts inner = of(f, depth + 1, visiting);
        h.putString(inner.identity()).putString(inner.codeVersion()).putString(inner.nestedCode());
        count++;
      }
    }
    return h.putLong(count).hex();
  }

  private static boolean isFunction(Object v) {
    if (v instanceof FunctionAdapter || Lambdas.serializedForm(v).isPresent()) {
      return true;
    }
    for (Class<?> c = v.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
      if (c != v.getClass() && startsWithAny(c.getName(), FUNCTION_TYPES)) {
        return true;
      }
      for (Class<?> i : c.getInterfaces()) {
        if (startsWithAny(i.getName(), FUNCTION_TYPES)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The instance fields of an object, read where the module system allows it. */
  private static List<Object> fieldValues(Object o) {
    List<Object> out = new ArrayList<>();
    for (Class<?> c = o.getClass(); c != null && !isJdk(c.getName()); c = c.getSuperclass()) {
      for (java.lang.reflect.Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        try {
          f.setAccessible(true);
          out.add(f.get(o));
        } catch (ReflectiveOperationException | RuntimeException e) {
          // a field the module system keeps closed holds no user function
        }
      }
    }
    return out;
  }

  private static boolean isJdk(String className) {
    return startsWithAny(className, LIBRARY_PREFIXES.subList(0, 4));
  }

  private static boolean isLibrary(String className) {
    return startsWithAny(className, LIBRARY_PREFIXES);
  }

  private static boolean startsWithAny(String s, List<String> prefixes) {
    for (String p : prefixes) {
      if (s.startsWith(p)) {
        return true;
      }
    }
    return false;
  }
}
