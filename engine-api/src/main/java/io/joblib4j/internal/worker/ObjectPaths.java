package io.joblib4j.internal.worker;

import io.joblib4j.Delayed;
import io.joblib4j.fn.FunctionNames;
import io.joblib4j.spi.support.SerializedLambdas;
import java.io.Externalizable;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Finds the path of fields from an object to the one that made serialization fail, the way Java
 * serialization itself would walk it: non-static, non-transient fields of serializable classes,
 * array elements, collection and map entries, and the captured values of serializable lambdas.
 * {@code NotSerializableException} names only the class; users need to know which field of which
 * argument holds it.
 */
final class ObjectPaths {
  private static final int MAX_DEPTH = 64;
  private static final int MAX_OBJECTS = 200_000;

  private ObjectPaths() {}

  /** The first object that is not serializable. */
  static Predicate<Object> notSerializable() {
    return o -> !(o instanceof Serializable);
  }

  /** Objects of exactly the class named {@code className}. */
  static Predicate<Object> ofClass(String className) {
    return o -> o.getClass().getName().equals(className);
  }

  /**
   * The path from {@code root} to the first object matching {@code bad}, depth first in
   * serialization order, e.g. {@code argument 1 (Model) → field 'socket' (java.net.Socket)}.
   */
  static Optional<String> find(Object root, Predicate<Object> bad) {
    return find(root, null, bad);
  }

  /** As {@link #find(Object, Predicate)}, the path starting with {@code rootLabel} (e.g. {@code "result"}) if not null. */
  static Optional<String> find(Object root, String rootLabel, Predicate<Object> bad) {
    Walk w = new Walk(bad);
    return w.visit(root, rootLabel, 0) ? Optional.of(w.render()) : Optional.empty();
  }

  private static final class Walk {
    private final Predicate<Object> bad;
    private final IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
    private final Deque<String> path = new ArrayDeque<>();

    Walk(Predicate<Object> bad) {
      this.bad = bad;
    }

    String render() {
      StringBuilder sb = new StringBuilder();
      for (var it = path.descendingIterator(); it.hasNext(); ) {
        if (sb.length() > 0) {
          sb.append(" → ");
        }
        sb.append(it.next());
      }
      return sb.toString();
    }

    /** True if {@code o} or something below it matches; the path is then left in {@link #path}. */
    boolean visit(Object o, String step, int depth) {
      if (o == null || isLeaf(o.getClass()) || depth > MAX_DEPTH || seen.size() > MAX_OBJECTS
          || seen.put(o, Boolean.TRUE) != null) {
        return false;
      }
      if (step != null) {
        path.push(step + " (" + typeName(o) + ")");
      }
      if (bad.test(o) || children(o, depth)) {
        return true;
      }
      if (step != null) {
        path.pop();
      }
      return false;
    }

    private boolean children(Object o, int depth) {
      Class<?> c = o.getClass();
      if (o instanceof Delayed<?> d) {
        if (visit(d.function(), "function", depth + 1)) {
          return true;
        }
        int i = 0;
        for (Object arg : d.arguments()) {
          if (visit(arg, "argument " + i++, depth + 1)) {
            return true;
          }
        }
        return false;
      }
      if (c.isArray()) {
        if (c.getComponentType().isPrimitive()) {
          return false;
        }
        Object[] a = (Object[]) o;
        for (int i = 0; i < a.length; i++) {
          if (visit(a[i], "[" + i + "]", depth + 1)) {
            return true;
          }
        }
        return false;
      }
      Optional<SerializedLambda> lambda = SerializedLambdas.of(o);
      if (lambda.isPresent()) {
        SerializedLambda sl = lambda.get();
        for (int i = 0; i < sl.getCapturedArgCount(); i++) {
          if (visit(sl.getCapturedArg(i), "captured value " + i, depth + 1)) {
            return true;
          }
        }
        return false;
      }
      if (o instanceof Map<?, ?> m && c.getName().startsWith("java.")) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (visit(e.getKey(), "key " + brief(e.getKey()), depth + 1)
              || visit(e.getValue(), "[" + brief(e.getKey()) + "]", depth + 1)) {
            return true;
          }
        }
        return false;
      }
      if (o instanceof Collection<?> coll && c.getName().startsWith("java.")) {
        int i = 0;
        for (Object e : coll) {
          if (visit(e, "[" + i++ + "]", depth + 1)) {
            return true;
          }
        }
        return false;
      }
      if (o instanceof Externalizable || !(o instanceof Serializable)) {
        return false;
      }
      for (Class<?> k = c; k != null && Serializable.class.isAssignableFrom(k); k = k.getSuperclass()) {
        for (Field f : k.getDeclaredFields()) {
          int mod = f.getModifiers();
          if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.getType().isPrimitive()) {
            continue;
          }
          Object v;
          try {
            f.setAccessible(true);
            v = f.get(o);
          } catch (RuntimeException | IllegalAccessException e) {
            return false; // a JDK class we may not look into: report the path so far
          }
          if (visit(v, "field '" + f.getName() + "'", depth + 1)) {
            return true;
          }
        }
      }
      return false;
    }

    private static boolean isLeaf(Class<?> c) {
      return c == String.class || c == Class.class || c.isEnum() || c.isPrimitive()
          || Number.class.isAssignableFrom(c) && c.getName().startsWith("java.")
          || c == Boolean.class || c == Character.class;
    }

    private static String typeName(Object o) {
      return o.getClass().isSynthetic() ? FunctionNames.of(o) : o.getClass().getName();
    }

    private static String brief(Object key) {
      String s = String.valueOf(key);
      return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
  }
}
