package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.UnhashableValueException;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.File;
import java.io.Serializable;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Walks a value and feeds its canonical, tagged byte stream to a {@link HashSink}. The rules (also in
 * {@link io.joblib4j.Joblib#hash(Object, HashAlgorithm)}'s Javadoc) are part of the hash: changing
 * any of them changes keys users have stored, so pinned values in the tests guard them.
 */
public final class ValueHasher {
  static final int MAX_DEPTH = 256;
  /**
   * Objects with parts (collections, arrays, records, objects, lambdas) one hash may walk. A value
   * reached twice along different paths is walked twice (sharing is not structure), so a graph of
   * many objects referring to many others can take exponential time: past this, it fails.
   */
  static final long MAX_VISITS = 1L << 27;
  private static final String TRANSIENT_FIX = "If it does not change the result, mark the field that holds it"
      + " transient (hashing skips transient fields); otherwise hash a record or a collection of the data it"
      + " stands for.";

  // tags: one byte before every value
  private static final int NULL = 0;
  private static final int FALSE = 1;
  private static final int TRUE = 2;
  private static final int BYTE = 3;
  private static final int SHORT = 4;
  private static final int CHAR = 5;
  private static final int INT = 6;
  private static final int LONG = 7;
  private static final int FLOAT = 8;
  private static final int DOUBLE = 9;
  private static final int STRING = 10;
  private static final int BIG_INTEGER = 11;
  private static final int BIG_DECIMAL = 12;
  private static final int PRIMITIVE_ARRAY = 13;
  private static final int NDARRAY = 14;
  private static final int OBJECT_ARRAY = 15;
  private static final int LIST = 16;
  private static final int SET = 17;
  private static final int MAP = 18;
  private static final int OTHER_COLLECTION = 19;
  private static final int OPTIONAL = 20;
  private static final int ENUM = 21;
  private static final int RECORD = 22;
  private static final int OBJECT = 23;
  private static final int CLASS = 24;
  private static final int TEXT_VALUE = 25;
  private static final int LAMBDA = 26;
  private static final int CHAR_SEQUENCE = 27;
  private static final int BACK_REFERENCE = 28;

  private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
    @Override
    protected Field[] computeValue(Class<?> type) {
      return hashedFields(type);
    }
  };

  private final HashAlgorithm algorithm;
  private final List<HashSink> sinks = new ArrayList<>();
  /** path[d]: the object with parts being hashed at depth d, for d below the current depth. */
  private Object[] path = new Object[8];
  private int deepest = -1;
  private long visits;

  ValueHasher(HashAlgorithm algorithm) {
    this.algorithm = algorithm;
  }

  /** {@code Joblib.hash}: the hex digest of one value. */
  public static String hex(Object value, HashAlgorithm algorithm) {
    ValueHasher h = new ValueHasher(algorithm);
    HashSink sink = h.sink(0);
    h.walk(value, sink);
    return HexFormat.of().formatHex(sink.finish());
  }

  /** Hashes one root value into {@code out}. */
  void walk(Object value, HashSink out) {
    visits = 0;
    try {
      hash(value, out, 0);
    } finally {
      Arrays.fill(path, 0, deepest + 1, null); // hold on to nothing of the value
      deepest = -1;
    }
  }

  /** A reset sink for nesting level {@code depth} (reused: maps of a million entries allocate none). */
  HashSink sink(int depth) {
    while (sinks.size() <= depth) {
      sinks.add(HashSink.create(algorithm));
    }
    HashSink s = sinks.get(depth);
    s.reset();
    return s;
  }

  private void hash(Object v, HashSink out, int depth) {
    if (depth > MAX_DEPTH) {
      throw new UnhashableValueException("it nests deeper than " + MAX_DEPTH + " levels",
          "Hash a flatter value: an array or a list of the data rather than a chain of objects.", null);
    }
    if (v == null) {
      out.putByte(NULL);
    } else if (v instanceof String) {
      out.putByte(STRING);
      out.putString((String) v);
    } else if (v instanceof Integer) {
      out.putByte(INT);
      out.putInt((Integer) v);
    } else if (v instanceof Long) {
      out.putByte(LONG);
      out.putLong((Long) v);
    } else if (v instanceof Double) {
      out.putByte(DOUBLE);
      out.putLong(Double.doubleToLongBits((Double) v)); // canonical NaN, -0.0 kept
    } else if (v instanceof Boolean) {
      out.putByte((Boolean) v ? TRUE : FALSE);
    } else if (v instanceof Float) {
      out.putByte(FLOAT);
      out.putInt(Float.floatToIntBits((Float) v));
    } else if (v instanceof Short) {
      out.putByte(SHORT);
      out.putInt((Short) v);
    } else if (v instanceof Byte) {
      out.putByte(BYTE);
      out.putByte((Byte) v);
    } else if (v instanceof Character) {
      out.putByte(CHAR);
      out.putInt((Character) v);
    } else if (v instanceof NDArray) {
      hashNDArray((NDArray) v, out);
    } else if (v.getClass().isArray()) {
      hashArray(v, out, depth);
    } else if (v instanceof Map) {
      hashMap((Map<?, ?>) v, out, depth);
    } else if (v instanceof Set) {
      hashSet((Set<?>) v, out, depth);
    } else if (v instanceof Collection) {
      // the loop stays here, not in a method of its own: the JIT then inlines the elements' hash()
      // into it, as it did before cycles were tracked (a helper made lists of lists 35 % slower)
      if (enter(v, out, depth)) {
        out.putByte(v instanceof List ? LIST : OTHER_COLLECTION);
        Collection<?> c = (Collection<?>) v;
        out.putLong(c.size());
        int i = 0;
        try {
          for (Object item : c) {
            hash(item, out, depth + 1);
            i++;
          }
        } catch (UnhashableValueException e) {
          throw e.within("[" + i + "]");
        }
      }
    } else if (v.getClass() == BigInteger.class) {
      out.putByte(BIG_INTEGER);
      putBytes(((BigInteger) v).toByteArray(), out);
    } else if (v.getClass() == BigDecimal.class) {
      out.putByte(BIG_DECIMAL); // by equals(): 1.0 and 1.00 differ
      out.putInt(((BigDecimal) v).scale());
      putBytes(((BigDecimal) v).unscaledValue().toByteArray(), out);
    } else if (v instanceof Optional) {
      hashOptional((Optional<?>) v, out, depth);
    } else if (v instanceof Enum) {
      out.putByte(ENUM);
      out.putString(((Enum<?>) v).getDeclaringClass().getName());
      out.putString(((Enum<?>) v).name());
    } else if (v instanceof Class) {
      out.putByte(CLASS);
      out.putString(((Class<?>) v).getName());
    } else if (v instanceof Record) {
      hashRecord((Record) v, out, depth);
    } else if (isTextValue(v)) {
      // JDK value types whose fields are closed to reflection but whose text form is their value
      out.putByte(TEXT_VALUE);
      out.putString(v.getClass().getName());
      out.putString(v instanceof java.net.URL ? ((java.net.URL) v).toExternalForm() : v.toString());
    } else if (v instanceof CharSequence) {
      out.putByte(CHAR_SEQUENCE);
      out.putString(v.toString());
    } else if (isLambda(v.getClass())) {
      hashLambda(v, out, depth);
    } else if (v instanceof HashedAs) {
      hash(((HashedAs) v).hashedAs(), out, depth);
    } else if (v instanceof io.joblib4j.Memory || v instanceof io.joblib4j.Parallel) {
      // where results are kept or how work is run does not change what a function computes
      out.putByte(CLASS);
      out.putString(v.getClass().getName());
    } else {
      hashFields(v, out, depth);
    }
  }

  /**
   * Starts hashing {@code v}, an object with parts, at {@code depth}; or, if {@code v} is one of
   * the objects being hashed above it (a cycle), hashes a reference to it instead: how many
   * levels up it is. The reference depends only on the shape of the graph, so isomorphic graphs
   * hash equal in any JVM, and values without cycles hash exactly as if there were no tracking.
   */
  private boolean enter(Object v, HashSink out, int depth) {
    for (int d = depth - 1; d >= 0; d--) {
      if (path[d] == v) {
        out.putByte(BACK_REFERENCE);
        out.putInt(depth - d);
        return false;
      }
    }
    if (++visits > MAX_VISITS) {
      throw new UnhashableValueException("it holds more than " + MAX_VISITS + " objects with parts, counting an"
          + " object once for every path that reaches it (are many objects referring to many others?)",
          TRANSIENT_FIX, null);
    }
    if (depth >= path.length) {
      path = Arrays.copyOf(path, Math.min(MAX_DEPTH + 1, path.length * 4));
    }
    path[depth] = v;
    deepest = Math.max(deepest, depth);
    return true;
  }

  /** Hashes a part of the value at {@code depth}; if it cannot be hashed, says where it was. */
  private void child(Object part, HashSink out, int depth, String step) {
    try {
      hash(part, out, depth + 1);
    } catch (UnhashableValueException e) {
      throw e.within(step);
    }
  }

  private static void putBytes(byte[] b, HashSink out) {
    out.putInt(b.length);
    out.putBytes(b, 0, b.length);
  }

  private void hashArray(Object a, HashSink out, int depth) {
    Class<?> component = a.getClass().getComponentType();
    if (component.isPrimitive()) {
      out.putByte(PRIMITIVE_ARRAY);
      out.putString(component.getName());
      out.putRawArray(a, elementSize(component));
      return;
    }
    if (!enter(a, out, depth)) {
      return;
    }
    Object[] items = (Object[]) a;
    out.putByte(OBJECT_ARRAY);
    out.putString(component.getName());
    out.putLong(items.length);
    int i = 0;
    try {
      for (; i < items.length; i++) {
        hash(items[i], out, depth + 1);
      }
    } catch (UnhashableValueException e) {
      throw e.within("[" + i + "]");
    }
  }

  private static int elementSize(Class<?> c) {
    if (c == double.class || c == long.class) return 8;
    if (c == int.class || c == float.class) return 4;
    if (c == short.class || c == char.class) return 2;
    return 1;
  }

  private void hashNDArray(NDArray a, HashSink out) {
    out.putByte(NDARRAY);
    out.putString(a.dtype().numpyName());
    long[] shape = a.shape();
    out.putInt(shape.length);
    for (long d : shape) {
      out.putLong(d);
    }
    out.putRawBuffers(a.nbytes(), sink -> ArrayAccess.get().forEachBuffer(a, sink));
  }

  /** Entries hashed one by one, then combined so that iteration order does not matter. */
  private void hashMap(Map<?, ?> m, HashSink out, int depth) {
    if (!enter(m, out, depth)) {
      return;
    }
    out.putByte(MAP);
    out.putLong(m.size());
    Combiner c = new Combiner(algorithm, m.size());
    for (Map.Entry<?, ?> e : m.entrySet()) {
      HashSink entry = sink(depth + 1);
      try {
        hash(e.getKey(), entry, depth + 1);
      } catch (UnhashableValueException x) {
        throw x.within("(a key of class " + className(e.getKey()) + ")");
      }
      try {
        hash(e.getValue(), entry, depth + 1);
      } catch (UnhashableValueException x) {
        throw x.within("[" + describeKey(e.getKey()) + "]");
      }
      c.add(entry);
    }
    c.into(out);
  }

  private static String className(Object o) {
    return o == null ? "null" : o.getClass().getName();
  }

  /** A map key as a step of a path: strings quoted, anything else by its text if short. */
  private static String describeKey(Object k) {
    if (k instanceof String s) {
      return s.length() <= 40 ? '"' + s + '"' : '"' + s.substring(0, 40) + "...\"";
    }
    if (k == null || k instanceof Number || k instanceof Boolean || k instanceof Character || k instanceof Enum) {
      return String.valueOf(k);
    }
    return "a key of class " + k.getClass().getName();
  }

  private void hashOptional(Optional<?> o, HashSink out, int depth) {
    if (!enter(o, out, depth)) {
      return;
    }
    out.putByte(OPTIONAL);
    out.putByte(o.isPresent() ? 1 : 0);
    if (o.isPresent()) {
      child(o.get(), out, depth, ".get()");
    }
  }

  private void hashSet(Set<?> s, HashSink out, int depth) {
    if (!enter(s, out, depth)) {
      return;
    }
    out.putByte(SET);
    out.putLong(s.size());
    Combiner c = new Combiner(algorithm, s.size());
    for (Object item : s) {
      HashSink element = sink(depth + 1);
      child(item, element, depth, "(an element)");
      c.add(element);
    }
    c.into(out);
  }

  private void hashRecord(Record r, HashSink out, int depth) {
    if (!enter(r, out, depth)) {
      return;
    }
    out.putByte(RECORD);
    out.putString(r.getClass().getName());
    RecordComponent[] comps = r.getClass().getRecordComponents();
    out.putInt(comps.length);
    for (RecordComponent rc : comps) {
      Object value;
      try {
        Method accessor = rc.getAccessor();
        accessor.setAccessible(true);
        value = accessor.invoke(r);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new UnhashableValueException("its component " + rc.getName() + " of record " + r.getClass().getName()
            + " cannot be read (" + e + ")", "Make the record's accessor return its component.", e);
      }
      child(value, out, depth, "." + rc.getName());
    }
  }

  private void hashFields(Object v, HashSink out, int depth) {
    if (!enter(v, out, depth)) {
      return;
    }
    Class<?> type = v.getClass();
    out.putByte(OBJECT);
    out.putString(type.getName());
    Field[] fields;
    try {
      fields = FIELDS.get(type);
    } catch (RuntimeException e) {
      throw new UnhashableValueException("it is a " + type.getName() + ", whose fields "
          + (type.getName().startsWith("java.") || type.getName().startsWith("javax.") || type.getName().startsWith("jdk.")
              || type.getName().startsWith("sun.") ? "the JDK does not open to reflection" : "cannot be read")
          + " (" + e.getMessage() + ")", TRANSIENT_FIX, e);
    }
    out.putInt(fields.length);
    for (Field f : fields) {
      out.putString(f.getName());
      Object value;
      try {
        value = f.get(v);
      } catch (IllegalAccessException e) {
        throw new UnhashableValueException("its field " + f + " cannot be read", TRANSIENT_FIX, e).within("." + f.getName());
      }
      child(value, out, depth, "." + f.getName());
    }
  }

  /**
   * Non-static, non-transient fields from the top superclass down, each class's sorted by name.
   * Synthetic fields count: they are what an anonymous or local class captured ({@code val$x},
   * {@code this$0}), the state its code runs with, like a lambda's captured values.
   */
  private static Field[] hashedFields(Class<?> type) {
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      chain.add(0, c);
    }
    List<Field> out = new ArrayList<>();
    for (Class<?> c : chain) {
      Field[] declared = c.getDeclaredFields();
      Arrays.sort(declared, Comparator.comparing(Field::getName));
      for (Field f : declared) {
        int m = f.getModifiers();
        if (Modifier.isStatic(m) || Modifier.isTransient(m)) {
          continue;
        }
        f.setAccessible(true); // InaccessibleObjectException for closed JDK internals
        out.add(f);
      }
    }
    return out.toArray(new Field[0]);
  }

  private static boolean isTextValue(Object v) {
    String n = v.getClass().getName();
    return n.startsWith("java.time.") || v instanceof UUID || v instanceof URI || v instanceof java.net.URL
        || v instanceof Path || v instanceof File || v instanceof java.util.Locale
        || v instanceof java.util.Currency || v instanceof java.nio.charset.Charset;
  }

  private static boolean isLambda(Class<?> c) {
    return c.isSynthetic() && c.getName().contains("$$Lambda");
  }

  /**
   * A lambda's class name changes from run to run, so a serializable lambda hashes by what it means:
   * its implementation method and captured values (from its SerializedLambda).
   */
  private void hashLambda(Object f, HashSink out, int depth) {
    if (!(f instanceof Serializable)) {
      throw new UnhashableValueException("it is the lambda " + f.getClass().getName() + ", which is not"
          + " Serializable and so has no stable identity", "Use a serializable functional interface (such as"
          + " io.joblib4j.fn.Fn1) or a method reference to a named method; or, if it does not change the result,"
          + " mark the field that holds it transient.", null);
    }
    SerializedLambda s;
    try {
      Method m = f.getClass().getDeclaredMethod("writeReplace");
      m.setAccessible(true);
      s = (SerializedLambda) m.invoke(f);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new UnhashableValueException("the serialized form of the lambda " + f.getClass().getName()
          + " cannot be read (" + e + ")", TRANSIENT_FIX, e);
    }
    if (!enter(f, out, depth)) {
      return;
    }
    out.putByte(LAMBDA);
    out.putString(s.getCapturingClass());
    out.putString(s.getFunctionalInterfaceClass());
    out.putString(s.getFunctionalInterfaceMethodName());
    out.putString(s.getImplClass());
    out.putString(s.getImplMethodName());
    out.putString(s.getImplMethodSignature());
    out.putInt(s.getImplMethodKind());
    out.putInt(s.getCapturedArgCount());
    boolean bound = s.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic
        && s.getImplMethodKind() != MethodHandleInfo.REF_newInvokeSpecial;
    for (int i = 0; i < s.getCapturedArgCount(); i++) {
      child(s.getCapturedArg(i), out, depth, "captured arg " + i + (bound && i == 0 ? " (this)" : ""));
    }
  }
}
