package io.joblib4j.internal.hash;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.File;
import java.io.Serializable;
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

  private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
    @Override
    protected Field[] computeValue(Class<?> type) {
      return hashedFields(type);
    }
  };

  private final HashAlgorithm algorithm;
  private final List<HashSink> sinks = new ArrayList<>();

  ValueHasher(HashAlgorithm algorithm) {
    this.algorithm = algorithm;
  }

  /** {@code Joblib.hash}: the hex digest of one value. */
  public static String hex(Object value, HashAlgorithm algorithm) {
    ValueHasher h = new ValueHasher(algorithm);
    HashSink sink = h.sink(0);
    h.hash(value, sink, 0);
    return HexFormat.of().formatHex(sink.finish());
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

  void hash(Object v, HashSink out, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("cannot hash a value nested deeper than " + MAX_DEPTH
          + " levels: does it contain a cycle (an object referring to itself)?");
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
      out.putByte(v instanceof List ? LIST : OTHER_COLLECTION);
      Collection<?> c = (Collection<?>) v;
      out.putLong(c.size());
      for (Object item : c) {
        hash(item, out, depth + 1);
      }
    } else if (v.getClass() == BigInteger.class) {
      out.putByte(BIG_INTEGER);
      putBytes(((BigInteger) v).toByteArray(), out);
    } else if (v.getClass() == BigDecimal.class) {
      out.putByte(BIG_DECIMAL); // by equals(): 1.0 and 1.00 differ
      out.putInt(((BigDecimal) v).scale());
      putBytes(((BigDecimal) v).unscaledValue().toByteArray(), out);
    } else if (v instanceof Optional) {
      out.putByte(OPTIONAL);
      Optional<?> o = (Optional<?>) v;
      out.putByte(o.isPresent() ? 1 : 0);
      if (o.isPresent()) {
        hash(o.get(), out, depth + 1);
      }
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
    } else {
      hashFields(v, out, depth);
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
    Object[] items = (Object[]) a;
    out.putByte(OBJECT_ARRAY);
    out.putString(component.getName());
    out.putLong(items.length);
    for (Object item : items) {
      hash(item, out, depth + 1);
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
    out.putByte(MAP);
    out.putLong(m.size());
    Combiner c = new Combiner(algorithm, m.size());
    for (Map.Entry<?, ?> e : m.entrySet()) {
      HashSink entry = sink(depth + 1);
      hash(e.getKey(), entry, depth + 1);
      hash(e.getValue(), entry, depth + 1);
      c.add(entry);
    }
    c.into(out);
  }

  private void hashSet(Set<?> s, HashSink out, int depth) {
    out.putByte(SET);
    out.putLong(s.size());
    Combiner c = new Combiner(algorithm, s.size());
    for (Object item : s) {
      HashSink element = sink(depth + 1);
      hash(item, element, depth + 1);
      c.add(element);
    }
    c.into(out);
  }

  private void hashRecord(Record r, HashSink out, int depth) {
    out.putByte(RECORD);
    out.putString(r.getClass().getName());
    RecordComponent[] comps = r.getClass().getRecordComponents();
    out.putInt(comps.length);
    for (RecordComponent rc : comps) {
      try {
        Method accessor = rc.getAccessor();
        accessor.setAccessible(true);
        hash(accessor.invoke(r), out, depth + 1);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalArgumentException("cannot hash component " + rc.getName() + " of record "
            + r.getClass().getName() + ": " + e, e);
      }
    }
  }

  private void hashFields(Object v, HashSink out, int depth) {
    Class<?> type = v.getClass();
    out.putByte(OBJECT);
    out.putString(type.getName());
    Field[] fields;
    try {
      fields = FIELDS.get(type);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("cannot hash a " + type.getName() + ": its fields cannot be read ("
          + e.getMessage() + "); hash a record or a collection of its data instead", e);
    }
    out.putInt(fields.length);
    for (Field f : fields) {
      out.putString(f.getName());
      try {
        hash(f.get(v), out, depth + 1);
      } catch (IllegalAccessException e) {
        throw new IllegalArgumentException("cannot read field " + f + " to hash it", e);
      }
    }
  }

  /** Non-static, non-transient fields from the top superclass down, each class's sorted by name. */
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
        if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) {
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
      throw new IllegalArgumentException("cannot hash the lambda " + f.getClass().getName() + ": it is not"
          + " Serializable, so it has no stable identity; use a serializable functional interface (such as"
          + " io.joblib4j.fn.Fn1) or a method reference to a named method");
    }
    SerializedLambda s;
    try {
      Method m = f.getClass().getDeclaredMethod("writeReplace");
      m.setAccessible(true);
      s = (SerializedLambda) m.invoke(f);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException("cannot read the serialized form of lambda " + f.getClass().getName(), e);
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
    for (int i = 0; i < s.getCapturedArgCount(); i++) {
      hash(s.getCapturedArg(i), out, depth + 1);
    }
  }
}
