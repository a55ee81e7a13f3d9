package io.joblib4j.internal.persist;

import io.joblib4j.CorruptFileException;
import io.joblib4j.JoblibException;
import io.joblib4j.UnsafeClassException;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import io.joblib4j.internal.array.ByteStorage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Rebuilds a value from the object stream. Every class it meets is checked by the {@link AllowList}
 * before it is loaded; collections grow as elements arrive (a declared size is never trusted for an
 * allocation); nesting is capped.
 */
final class ValueDecoder {
  private static final int PREALLOCATE_MAX = 1 << 12;
  /** A String's own object and its array's header, before its bytes; BigInteger and java.time values alike. */
  private static final int STRING = 40;
  /** An NDArray and its storage's objects, before their shape and strides. */
  private static final int NDARRAY = 96;

  private final ObjectIn in;
  private final ContainerReader reader;
  private final AllowList allow;
  private final HeapBudget heap;
  private final int maxDepth;
  private final List<Class<?>> classes = new ArrayList<>();
  private final Map<Long, Object> arrays = new HashMap<>();

  ValueDecoder(ContainerReader reader, AllowList allow, HeapBudget heap, int maxDepth) {
    this.reader = reader;
    this.in = new ObjectIn(reader);
    this.allow = allow;
    this.heap = heap;
    this.maxDepth = maxDepth;
  }

  Object readRoot() throws IOException {
    Object v = read(0);
    if (!in.atChunkEnd()) {
      throw reader.corrupt("unexpected bytes after the value in the object stream");
    }
    reader.finish();
    return v;
  }

  private CorruptFileException corrupt(String problem) {
    return reader.corrupt(problem);
  }

  private Object read(int depth) throws IOException {
    if (depth > maxDepth) {
      throw corrupt("values nest deeper than " + maxDepth + " levels (LoadOptions.maxDepth)");
    }
    int tag = in.readByte();
    switch (tag) {
      case Tags.NULL: return null;
      case Tags.FALSE: return Boolean.FALSE;
      case Tags.TRUE: return Boolean.TRUE;
      case Tags.BYTE: heap.charge(HeapBudget.OBJECT); return (byte) in.readByte();
      case Tags.SHORT: heap.charge(HeapBudget.OBJECT); return (short) in.readShort();
      case Tags.CHAR: heap.charge(HeapBudget.OBJECT); return (char) in.readShort();
      case Tags.INT: heap.charge(HeapBudget.OBJECT); return in.readInt();
      case Tags.LONG: heap.charge(2 * HeapBudget.OBJECT); return in.readLong();
      case Tags.FLOAT: heap.charge(HeapBudget.OBJECT); return Float.intBitsToFloat(in.readInt());
      case Tags.DOUBLE: heap.charge(2 * HeapBudget.OBJECT); return Double.longBitsToDouble(in.readLong());
      case Tags.STRING: {
        String v = in.readString();
        heap.charge(STRING + v.length());
        return v;
      }
      case Tags.BIG_INTEGER: return bigInteger();
      case Tags.BIG_DECIMAL: {
        int scale = in.readInt();
        heap.charge(STRING);
        return new BigDecimal(bigInteger(), scale);
      }
      case Tags.ARRAY_INLINE: return inlineArray();
      case Tags.ARRAY_BLOB: return blobArray();
      case Tags.NDARRAY: return ndarray();
      case Tags.OBJECT_ARRAY: return objectArray(depth);
      case Tags.LIST: return list(depth);
      case Tags.SET: return set(depth);
      case Tags.MAP: return map(depth);
      case Tags.ENUM: return enumValue();
      case Tags.RECORD: return record(depth);
      case Tags.OPTIONAL_EMPTY: return Optional.empty();
      case Tags.OPTIONAL: {
        Object v = read(depth + 1);
        if (v == null) {
          throw corrupt("an Optional holds null");
        }
        heap.charge(HeapBudget.OBJECT);
        return Optional.of(v);
      }
      case Tags.UUID: heap.charge(2 * HeapBudget.OBJECT); return new UUID(in.readLong(), in.readLong());
      case Tags.TIME: heap.charge(STRING); return time();
      case Tags.JAVA: return java();
      case Tags.KRYO: return kryo();
      default: throw corrupt("unknown value tag " + tag + " in the object stream");
    }
  }

  private BigInteger bigInteger() throws IOException {
    int n = in.readLength("a BigInteger");
    if (n == 0) {
      throw corrupt("a BigInteger with no bytes");
    }
    heap.charge(STRING + n);
    return new BigInteger(in.readBytes(n));
  }

  private Class<?> readClass() throws IOException {
    long ref = in.readVarLong();
    if (ref == 0) {
      String name = in.readString();
      try {
        Class<?> c = allow.resolve(name);
        classes.add(c);
        return c;
      } catch (ClassNotFoundException | LinkageError e) {
        throw new JoblibException(reader.name() + ": class " + name
            + " is not on the class path (is the jar that defines it missing?)", e);
      }
    }
    if (ref > classes.size()) {
      throw corrupt("reference to class #" + ref + " that was never defined");
    }
    return classes.get((int) (ref - 1));
  }

  private Object inlineArray() throws IOException {
    int type = in.readByte();
    int size = Tags.elementSize(type);
    if (size < 0) {
      throw corrupt("unknown array element type " + type);
    }
    int n = in.readLength("an array");
    if ((long) n * size > Format.MAX_INLINE_ARRAY) {
      throw corrupt("an inline array of " + n + " elements is over the limit of " + Format.MAX_INLINE_ARRAY + " bytes");
    }
    byte[] b = in.readBytes(n * size);
    heap.charge(HeapBudget.ARRAY + (long) n * size);
    Object a = PrimitiveArrays.newArray(type, n);
    if (!PrimitiveArrays.fromBytes(ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN), a, 0, n)) {
      throw corrupt("a boolean array holds a value other than 0 or 1");
    }
    return a;
  }

  private Object blobArray() throws IOException {
    int type = in.readByte();
    long n = in.readVarLong();
    long id = in.readVarLong();
    Object a = reader.blob(id);
    if (a instanceof ByteStorage || PrimitiveArrays.elementType(a) != type || PrimitiveArrays.length(a) != n) {
      throw corrupt("array #" + id + " is not the " + n + "-element array the value refers to");
    }
    return a;
  }

  private Object ndarray() throws IOException {
    DType dtype = DType.fromCode(in.readByte());
    int ndim = in.readByte();
    if (dtype == null || ndim > io.joblib4j.internal.array.Shapes.MAX_DIMS) {
      throw corrupt("an NDArray with an unknown dtype or too many dimensions");
    }
    long[] shape = new long[ndim];
    for (int i = 0; i < ndim; i++) {
      shape[i] = in.readVarLong();
    }
    long id = in.readVarLong();
    Object cached = arrays.get(id);
    if (cached instanceof NDArray && ((NDArray) cached).dtype() == dtype
        && java.util.Arrays.equals(((NDArray) cached).shape(), shape)) {
      return cached; // the same array twice in the value stays one array
    }
    Object s = reader.blob(id);
    if (!(s instanceof ByteStorage)) {
      throw corrupt("array #" + id + " is not NDArray data");
    }
    heap.charge(NDARRAY + 16L * ndim);
    try {
      NDArray a = ArrayAccess.get().create((ByteStorage) s, dtype, shape);
      arrays.put(id, a);
      return a;
    } catch (IllegalArgumentException e) {
      throw corrupt("NDArray " + dtype.numpyName() + java.util.Arrays.toString(shape) + " does not match its data: "
          + e.getMessage());
    }
  }

  private Object objectArray(int depth) throws IOException {
    Class<?> component = readClass();
    int n = in.readLength("an array");
    List<Object> items = new ArrayList<>(Math.min(n, PREALLOCATE_MAX));
    for (int i = 0; i < n; i++) {
      heap.charge(2 * HeapBudget.REF); // its slot in the array, and in the list gathering it
      items.add(read(depth + 1));
    }
    heap.charge(HeapBudget.ARRAY);
    try {
      Object a = Array.newInstance(component, n);
      for (int i = 0; i < n; i++) {
        Array.set(a, i, items.get(i));
      }
      return a;
    } catch (IllegalArgumentException e) {
      throw corrupt("an element does not fit an array of " + component.getName());
    }
  }

  private Object list(int depth) throws IOException {
    int kind = in.readByte();
    int n = in.readLength("a list");
    List<Object> items = kind == Tags.C_LINKED ? new LinkedList<>() : new ArrayList<>(Math.min(n, PREALLOCATE_MAX));
    heap.charge(2 * HeapBudget.OBJECT);
    int slot = kind == Tags.C_LINKED ? 24 : HeapBudget.REF + HeapBudget.REF / 2; // a node, or a slot with growth room
    for (int i = 0; i < n; i++) {
      heap.charge(slot);
      items.add(read(depth + 1));
    }
    switch (kind) {
      case Tags.C_PLAIN:
      case Tags.C_LINKED: return items;
      case Tags.C_UNMODIFIABLE: return Collections.unmodifiableList(items);
      default: throw corrupt("unknown list kind " + kind);
    }
  }

  private Object set(int depth) throws IOException {
    int kind = in.readByte();
    int n = in.readLength("a set");
    Collection<Object> items;
    switch (kind) {
      case Tags.C_PLAIN: items = new HashSet<>(); break;
      case Tags.C_LINKED: case Tags.C_UNMODIFIABLE: items = new LinkedHashSet<>(); break;
      case Tags.C_SORTED: items = new TreeSet<>(); break;
      default: throw corrupt("unknown set kind " + kind);
    }
    heap.charge(HeapBudget.OBJECT + HeapBudget.HASH_MAP);
    for (int i = 0; i < n; i++) {
      heap.charge(HeapBudget.MAP_ENTRY);
      Object item = read(depth + 1);
      if (!add(items, item)) {
        throw corrupt("a set holds the same element twice");
      }
    }
    return kind == Tags.C_UNMODIFIABLE ? Collections.unmodifiableSet((java.util.Set<Object>) items) : items;
  }

  private boolean add(Collection<Object> items, Object item) {
    try {
      return items.add(item);
    } catch (ClassCastException | NullPointerException e) {
      throw corrupt("a sorted set holds elements that cannot be compared: " + e.getMessage());
    }
  }

  private Object map(int depth) throws IOException {
    int kind = in.readByte();
    int n = in.readLength("a map");
    Map<Object, Object> m;
    switch (kind) {
      case Tags.C_PLAIN: m = new HashMap<>(Math.min(n, PREALLOCATE_MAX) * 4 / 3 + 1); break;
      case Tags.C_LINKED: case Tags.C_UNMODIFIABLE: m = new LinkedHashMap<>(); break;
      case Tags.C_SORTED: m = new TreeMap<>(); break;
      default: throw corrupt("unknown map kind " + kind);
    }
    heap.charge(HeapBudget.HASH_MAP);
    for (int i = 0; i < n; i++) {
      heap.charge(HeapBudget.MAP_ENTRY);
      Object k = read(depth + 1);
      Object v = read(depth + 1);
      try {
        if (m.containsKey(k)) {
          throw corrupt("a map holds the same key twice");
        }
        m.put(k, v);
      } catch (ClassCastException | NullPointerException e) {
        throw corrupt("a sorted map holds keys that cannot be compared: " + e.getMessage());
      }
    }
    return kind == Tags.C_UNMODIFIABLE ? Collections.unmodifiableMap(m) : m;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object enumValue() throws IOException {
    Class<?> c = readClass();
    String name = in.readString();
    if (!c.isEnum()) {
      throw corrupt(c.getName() + " is stored as an enum but is not one");
    }
    try {
      return Enum.valueOf((Class) c, name);
    } catch (IllegalArgumentException e) {
      throw new JoblibException(reader.name() + ": enum " + c.getName() + " has no constant " + name
          + " (was it renamed since the file was written?)");
    }
  }

  private Object record(int depth) throws IOException {
    Class<?> c = readClass();
    if (!c.isRecord()) {
      throw corrupt(c.getName() + " is stored as a record but is not one");
    }
    RecordComponent[] comps = c.getRecordComponents();
    int n = in.readLength("a record");
    if (n != comps.length) {
      throw new JoblibException(reader.name() + ": record " + c.getName() + " was written with " + n
          + " components but now has " + comps.length + " (did its definition change?)");
    }
    heap.charge(HeapBudget.OBJECT + 8L * n);
    Object[] values = new Object[n];
    Class<?>[] types = new Class<?>[n];
    for (int i = 0; i < n; i++) {
      values[i] = read(depth + 1);
      types[i] = comps[i].getType();
    }
    try {
      Constructor<?> ctor = c.getDeclaredConstructor(types);
      ctor.setAccessible(true);
      return ctor.newInstance(values);
    } catch (IllegalArgumentException e) {
      throw corrupt("the stored values do not fit the components of record " + c.getName());
    } catch (InvocationTargetException e) {
      throw new JoblibException(reader.name() + ": the constructor of record " + c.getName()
          + " rejected the stored values: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new JoblibException(reader.name() + ": cannot construct record " + c.getName() + ": " + e, e);
    }
  }

  private Object time() throws IOException {
    int kind = in.readByte();
    String s = in.readString();
    try {
      switch (kind) {
        case Tags.T_INSTANT: return Instant.parse(s);
        case Tags.T_LOCAL_DATE: return LocalDate.parse(s);
        case Tags.T_LOCAL_TIME: return LocalTime.parse(s);
        case Tags.T_LOCAL_DATE_TIME: return LocalDateTime.parse(s);
        case Tags.T_OFFSET_DATE_TIME: return OffsetDateTime.parse(s);
        case Tags.T_ZONED_DATE_TIME: return ZonedDateTime.parse(s);
        case Tags.T_DURATION: return Duration.parse(s);
        case Tags.T_PERIOD: return Period.parse(s);
        case Tags.T_ZONE_ID: return ZoneId.of(s);
        case Tags.T_YEAR_MONTH: return YearMonth.parse(s);
        default: throw corrupt("unknown time kind " + kind);
      }
    } catch (java.time.DateTimeException e) {
      throw corrupt("malformed time value \"" + s + "\"");
    }
  }

  private Object java() throws IOException {
    int n = in.readLength("a Java-serialized object");
    byte[] b = in.readBytes(n);
    try (ObjectInputStream ois = new JavaCodec.FilteredInput(new ByteArrayInputStream(b), allow, n, maxDepth, heap)) {
      return ois.readObject();
    } catch (UnsafeClassException e) {
      throw e;
    } catch (InvalidClassException e) {
      if (e.getCause() instanceof JoblibException) {
        throw (JoblibException) e.getCause(); // the filter's heap budget ran out
      }
      throw corrupt("Java-serialized object refused: " + e.getMessage());
    } catch (ClassNotFoundException e) {
      throw new JoblibException(reader.name() + ": class " + e.getMessage()
          + " is not on the class path (is the jar that defines it missing?)", e);
    } catch (IOException e) {
      throw malformed("Java-serialized", e);
    } catch (RuntimeException | InternalError e) {
      // the JDK's classes reject some malformed serial forms with unchecked exceptions (InternalError
      // from the immutable collections); anything thrown by other code is a bug and is not hidden
      Throwable bug = LibraryVerdicts.bug(e, ValueDecoder.class);
      if (bug != null) {
        throw LibraryVerdicts.rethrow(bug);
      }
      throw malformed("Java-serialized", e);
    }
  }

  private Object kryo() throws IOException {
    int n = in.readLength("a Kryo object");
    byte[] b = in.readBytes(n);
    try {
      return KryoReaders.read(b, allow, maxDepth, heap);
    } catch (JoblibException e) {
      throw e; // a refused class, or the heap budget
    } catch (RuntimeException e) {
      Throwable bug = LibraryVerdicts.bug(e, KryoCodec.class);
      if (bug != null) {
        throw LibraryVerdicts.rethrow(bug); // not the bytes' fault: a bug must not look like a damaged file
      }
      throw malformed("Kryo", e);
    }
  }

  private CorruptFileException malformed(String what, Throwable e) {
    return new CorruptFileException(reader.name(), "malformed " + what + " object: " + e, e);
  }
}
