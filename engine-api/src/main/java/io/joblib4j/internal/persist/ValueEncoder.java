package io.joblib4j.internal.persist;

import io.joblib4j.array.NDArray;
import io.joblib4j.internal.array.ArrayAccess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Turns a value into the object stream (data-only tags, FORMAT.md "Values") plus blob records for
 * arrays. Types it does not know go to Java serialization when Serializable, otherwise to Kryo.
 */
final class ValueEncoder {
  static final int MAX_DEPTH = 256;

  private final ContainerWriter writer;
  private final ObjectOut out;
  private final Map<Object, Long> blobIds = new IdentityHashMap<>();
  private final Map<Class<?>, Integer> classIds = new HashMap<>();
  private KryoCodec kryo;

  ValueEncoder(ContainerWriter writer) {
    this.writer = writer;
    this.out = new ObjectOut(writer);
  }

  void writeRoot(Object value) throws IOException {
    write(value, 0);
    out.flush();
    writer.finish();
  }

  private void write(Object v, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("cannot dump a value nested deeper than " + MAX_DEPTH
          + " levels: does it contain a cycle (a list containing itself)?");
    }
    if (v == null) {
      out.writeByte(Tags.NULL);
    } else if (v instanceof String) {
      out.writeByte(Tags.STRING);
      out.writeString((String) v);
    } else if (v instanceof Integer) {
      out.writeByte(Tags.INT);
      out.writeInt((Integer) v);
    } else if (v instanceof Long) {
      out.writeByte(Tags.LONG);
      out.writeLong((Long) v);
    } else if (v instanceof Double) {
      out.writeByte(Tags.DOUBLE);
      out.writeLong(Double.doubleToRawLongBits((Double) v));
    } else if (v instanceof Boolean) {
      out.writeByte((Boolean) v ? Tags.TRUE : Tags.FALSE);
    } else if (v instanceof Float) {
      out.writeByte(Tags.FLOAT);
      out.writeInt(Float.floatToRawIntBits((Float) v));
    } else if (v instanceof Short) {
      out.writeByte(Tags.SHORT);
      out.writeShort((Short) v);
    } else if (v instanceof Byte) {
      out.writeByte(Tags.BYTE);
      out.writeByte((Byte) v);
    } else if (v instanceof Character) {
      out.writeByte(Tags.CHAR);
      out.writeShort((Character) v);
    } else if (v.getClass() == BigInteger.class) {
      out.writeByte(Tags.BIG_INTEGER);
      writeBytes(((BigInteger) v).toByteArray());
    } else if (v.getClass() == BigDecimal.class) {
      out.writeByte(Tags.BIG_DECIMAL);
      out.writeInt(((BigDecimal) v).scale());
      writeBytes(((BigDecimal) v).unscaledValue().toByteArray());
    } else if (v instanceof NDArray) {
      writeNDArray((NDArray) v);
    } else if (v.getClass().isArray()) {
      writeArray(v, depth);
    } else if (v instanceof Optional) {
      Optional<?> o = (Optional<?>) v;
      if (o.isEmpty()) {
        out.writeByte(Tags.OPTIONAL_EMPTY);
      } else {
        out.writeByte(Tags.OPTIONAL);
        write(o.get(), depth + 1);
      }
    } else if (v instanceof UUID) {
      out.writeByte(Tags.UUID);
      out.writeLong(((UUID) v).getMostSignificantBits());
      out.writeLong(((UUID) v).getLeastSignificantBits());
    } else if (v instanceof Enum) {
      out.writeByte(Tags.ENUM);
      writeClass(((Enum<?>) v).getDeclaringClass());
      out.writeString(((Enum<?>) v).name());
    } else if (v instanceof Record) {
      writeRecord((Record) v, depth);
    } else if (!writeTime(v) && !writeCollection(v, depth)) {
      writeFallback(v);
    }
  }

  private void writeBytes(byte[] b) throws IOException {
    out.writeVarLong(b.length);
    out.writeBytes(b, 0, b.length);
  }

  private void writeClass(Class<?> c) throws IOException {
    Integer id = classIds.get(c);
    if (id != null) {
      out.writeVarLong(id + 1L);
      return;
    }
    classIds.put(c, classIds.size());
    out.writeVarLong(0);
    out.writeString(c.getName());
  }

  private void writeArray(Object a, int depth) throws IOException {
    int type = PrimitiveArrays.elementType(a);
    if (type < 0) {
      Object[] items = (Object[]) a;
      out.writeByte(Tags.OBJECT_ARRAY);
      writeClass(a.getClass().getComponentType());
      out.writeVarLong(items.length);
      for (Object item : items) {
        write(item, depth + 1);
      }
      return;
    }
    int n = PrimitiveArrays.length(a);
    long bytes = (long) n * Tags.elementSize(type);
    if (bytes < Format.INLINE_ARRAY_MAX) {
      out.writeByte(Tags.ARRAY_INLINE);
      out.writeByte(type);
      out.writeVarLong(n);
      ByteBuffer b = ByteBuffer.allocate((int) bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      PrimitiveArrays.toBytes(a, 0, n, b);
      out.writeBytes(b.array(), 0, (int) bytes);
      return;
    }
    Long id = blobIds.get(a);
    if (id == null) {
      id = writer.beginBlob(type, bytes);
      if (bytes >= ChecksumPipeline.MIN_BYTES) {
        try (ChecksumPipeline pipe = writer.pipeline()) {
          int per = (1 << 20) / Tags.elementSize(type);
          for (int off = 0; off < n; off += per) {
            ByteBuffer stage = pipe.take();
            PrimitiveArrays.toBytes(a, off, Math.min(per, n - off), stage);
            pipe.submit(stage);
            writer.payloadChecksummedElsewhere(stage);
          }
          writer.end(pipe.value());
        }
      } else {
        ByteBuffer stage = writer.stage();
        int per = stage.capacity() / Tags.elementSize(type);
        for (int off = 0; off < n; off += per) {
          int k = Math.min(per, n - off);
          PrimitiveArrays.toBytes(a, off, k, stage);
          writer.payload(stage);
        }
        writer.end();
      }
      blobIds.put(a, id);
    }
    out.writeByte(Tags.ARRAY_BLOB);
    out.writeByte(type);
    out.writeVarLong(n);
    out.writeVarLong(id);
  }

  private void writeNDArray(NDArray a) throws IOException {
    Long id = blobIds.get(a);
    if (id == null) {
      id = writer.beginArrayBlob(a.nbytes());
      IOException[] failure = {null};
      ArrayAccess.get().forEachBuffer(a, b -> {
        try {
          if (failure[0] == null) {
            writer.payload(b);
          }
        } catch (IOException e) {
          failure[0] = e;
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
      writer.endArrayBlob();
      blobIds.put(a, id);
    }
    out.writeByte(Tags.NDARRAY);
    out.writeByte(a.dtype().code());
    long[] shape = a.shape();
    out.writeByte(shape.length);
    for (long d : shape) {
      out.writeVarLong(d);
    }
    out.writeVarLong(id);
  }

  private void writeRecord(Record r, int depth) throws IOException {
    RecordComponent[] comps = r.getClass().getRecordComponents();
    out.writeByte(Tags.RECORD);
    writeClass(r.getClass());
    out.writeVarLong(comps.length);
    for (RecordComponent c : comps) {
      Object value;
      try {
        var accessor = c.getAccessor();
        accessor.setAccessible(true);
        value = accessor.invoke(r);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalArgumentException("cannot read component " + c.getName() + " of record "
            + r.getClass().getName() + ": " + e, e);
      }
      write(value, depth + 1);
    }
  }

  private boolean writeTime(Object v) throws IOException {
    int kind;
    if (v instanceof Instant) kind = Tags.T_INSTANT;
    else if (v instanceof LocalDate) kind = Tags.T_LOCAL_DATE;
    else if (v instanceof LocalTime) kind = Tags.T_LOCAL_TIME;
    else if (v instanceof LocalDateTime) kind = Tags.T_LOCAL_DATE_TIME;
    else if (v instanceof OffsetDateTime) kind = Tags.T_OFFSET_DATE_TIME;
    else if (v instanceof ZonedDateTime) kind = Tags.T_ZONED_DATE_TIME;
    else if (v instanceof Duration) kind = Tags.T_DURATION;
    else if (v instanceof Period) kind = Tags.T_PERIOD;
    else if (v instanceof ZoneId) kind = Tags.T_ZONE_ID;
    else if (v instanceof YearMonth) kind = Tags.T_YEAR_MONTH;
    else return false;
    out.writeByte(Tags.TIME);
    out.writeByte(kind);
    out.writeString(v.toString());
    return true;
  }

  private boolean writeCollection(Object v, int depth) throws IOException {
    Class<?> c = v.getClass();
    if (v instanceof List) {
      int kind = c == ArrayList.class || c.getName().equals("java.util.Arrays$ArrayList") ? Tags.C_PLAIN
          : c == LinkedList.class ? Tags.C_LINKED : isUnmodifiable(c) ? Tags.C_UNMODIFIABLE : -1;
      return kind >= 0 && writeItems(Tags.LIST, kind, (Collection<?>) v, depth);
    }
    if (v instanceof Set) {
      int kind = c == HashSet.class ? Tags.C_PLAIN : c == LinkedHashSet.class ? Tags.C_LINKED
          : c == TreeSet.class && ((TreeSet<?>) v).comparator() == null ? Tags.C_SORTED
          : isUnmodifiable(c) && !(v instanceof java.util.SortedSet) ? Tags.C_UNMODIFIABLE : -1;
      return kind >= 0 && writeItems(Tags.SET, kind, (Collection<?>) v, depth);
    }
    if (v instanceof Map) {
      int kind = c == HashMap.class ? Tags.C_PLAIN
          : c == LinkedHashMap.class ? Tags.C_LINKED
          : c == TreeMap.class && ((TreeMap<?, ?>) v).comparator() == null ? Tags.C_SORTED
          : isUnmodifiable(c) && !(v instanceof java.util.SortedMap) ? Tags.C_UNMODIFIABLE : -1;
      if (kind < 0) {
        return false;
      }
      Map<?, ?> m = (Map<?, ?>) v;
      out.writeByte(Tags.MAP);
      out.writeByte(kind);
      out.writeVarLong(m.size());
      int written = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        write(e.getKey(), depth + 1);
        write(e.getValue(), depth + 1);
        written++;
      }
      checkSize(m.size(), written, v);
      return true;
    }
    return false;
  }

  private boolean writeItems(int tag, int kind, Collection<?> items, int depth) throws IOException {
    out.writeByte(tag);
    out.writeByte(kind);
    int size = items.size();
    out.writeVarLong(size);
    int written = 0;
    for (Object item : items) {
      write(item, depth + 1);
      written++;
    }
    checkSize(size, written, items);
    return true;
  }

  private static void checkSize(int size, int written, Object v) {
    if (size != written) {
      throw new java.util.ConcurrentModificationException("a " + v.getClass().getName()
          + " changed size while it was being dumped");
    }
  }

  /** The JDK's immutable and unmodifiable wrappers, rebuilt as unmodifiable views on load. */
  private static boolean isUnmodifiable(Class<?> c) {
    String n = c.getName();
    return n.startsWith("java.util.ImmutableCollections$") || n.startsWith("java.util.Collections$Unmodifiable")
        || n.startsWith("java.util.Collections$Empty") || n.startsWith("java.util.Collections$Singleton");
  }

  private void writeFallback(Object v) throws IOException {
    if (v instanceof Serializable) {
      try {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bytes)) {
          oos.writeObject(v);
        }
        out.writeByte(Tags.JAVA);
        writeBytes(bytes.toByteArray());
        return;
      } catch (NotSerializableException e) {
        // something inside is not Serializable: Kryo copes with plain fields
      }
    }
    if (kryo == null) {
      kryo = KryoCodec.forWriting();
    }
    out.writeByte(Tags.KRYO);
    writeBytes(kryo.write(v));
  }
}
