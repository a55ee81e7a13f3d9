package io.joblib4j.internal.persist;

import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.KryoException;
import com.esotericsoftware.kryo.kryo5.Serializer;
import com.esotericsoftware.kryo.kryo5.io.Input;
import com.esotericsoftware.kryo.kryo5.io.Output;
import com.esotericsoftware.kryo.kryo5.objenesis.strategy.StdInstantiatorStrategy;
import com.esotericsoftware.kryo.kryo5.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.kryo5.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.kryo5.serializers.MapSerializer;
import com.esotericsoftware.kryo.kryo5.util.DefaultClassResolver;
import com.esotericsoftware.kryo.kryo5.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.kryo5.util.MapReferenceResolver;
import io.joblib4j.JoblibException;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Kryo 5 for objects that are neither data the codec knows nor Serializable. Classes are written by
 * name; on read every name goes through the {@link AllowList} before Kryo loads the class, so a
 * refused class is never instantiated. Every length Kryo reads (strings and class names, arrays,
 * collections, maps) is checked against the bytes left before Kryo allocates for it, and nesting
 * is capped, so hostile payloads fail cleanly.
 */
final class KryoCodec {
  private final Kryo kryo;

  KryoCodec(Kryo kryo) {
    this.kryo = kryo;
  }

  Kryo kryo() {
    return kryo;
  }

  static KryoCodec forWriting() {
    return new KryoCodec(configure(new Kryo(new DefaultClassResolver(), new MapReferenceResolver()), contextLoader(), 1000));
  }

  private static ClassLoader contextLoader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : KryoCodec.class.getClassLoader();
  }

  static Kryo configure(Kryo k, ClassLoader loader, int maxDepth) {
    // unregistered classes are written by name; safety comes from the allow-list, not from IDs
    k.setRegistrationRequired(false);
    k.setReferences(true);
    k.setMaxDepth(maxDepth);
    k.setClassLoader(loader);
    k.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
    k.addDefaultSerializer(NDArray.class, new NDArraySerializer());
    return k;
  }

  /** Refuses {@code count} things of at least {@code minBytes} bytes each when fewer bytes are left. */
  static void requireBytesFor(long count, int minBytes, Input in, String what) {
    long left = in.limit() - in.position();
    if (count < 0 || count * minBytes > left) {
      throw new KryoException(what + " declares " + count + " elements (at least " + count * minBytes
          + " bytes) but only " + left + " bytes are left in the Kryo payload");
    }
  }

  /**
   * Kryo's Input, with each length it reads checked against the bytes left before it allocates
   * for it: strings (class names among them) and the primitive arrays behind Kryo's array
   * serializers, BigInteger and BitSet.
   */
  static final class BoundedInput extends Input {
    BoundedInput(byte[] bytes) {
      super(bytes);
    }

    /** A UTF-8 string starts with its char count (an ASCII one ends at a marked byte instead). */
    private void checkStringLength() {
      if (position < limit && (buffer[position] & 0x80) != 0) {
        int at = position;
        int count = readVarIntFlag(true);
        position = at;
        requireBytesFor(count - 1L, 1, this, "a string");
      }
    }

    @Override
    public String readString() {
      checkStringLength();
      return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
      checkStringLength();
      return super.readStringBuilder();
    }

    @Override
    public byte[] readBytes(int length) {
      requireBytesFor(length, 1, this, "a byte array");
      return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
      requireBytesFor(length, 4, this, "an int array");
      return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
      requireBytesFor(length, 1, this, "an int array"); // varints: at least a byte each
      return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
      requireBytesFor(length, 8, this, "a long array");
      return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
      requireBytesFor(length, 1, this, "a long array");
      return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
      requireBytesFor(length, 4, this, "a float array");
      return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
      requireBytesFor(length, 8, this, "a double array");
      return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
      requireBytesFor(length, 2, this, "a short array");
      return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
      requireBytesFor(length, 2, this, "a char array");
      return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
      requireBytesFor(length, 1, this, "a boolean array");
      return super.readBooleans(length);
    }
  }

  /**
   * Kryo whose collection, map and object-array serializers check the size they read against the
   * bytes left (every element takes at least one byte) before they preallocate for it.
   */
  static final class BoundedKryo extends Kryo {
    BoundedKryo(DefaultClassResolver resolver, MapReferenceResolver references) {
      super(resolver, references);
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Serializer getDefaultSerializer(Class type) {
      Serializer s = super.getDefaultSerializer(type);
      Class<?> c = s.getClass();
      if (c == CollectionSerializer.class) {
        return new CollectionSerializer() {
          @Override
          protected Collection create(Kryo kryo, Input input, Class type, int size) {
            requireBytesFor(size, 1, input, "a " + type.getName());
            return super.create(kryo, input, type, size);
          }
        };
      }
      if (c == DefaultSerializers.ArraysAsListSerializer.class) {
        return new DefaultSerializers.ArraysAsListSerializer() {
          @Override
          protected List create(Kryo kryo, Input input, Class type, int size) {
            requireBytesFor(size, 1, input, "an Arrays.asList");
            return super.create(kryo, input, type, size);
          }
        };
      }
      if (c == DefaultSerializers.PriorityQueueSerializer.class) {
        return new DefaultSerializers.PriorityQueueSerializer() {
          @Override
          protected PriorityQueue create(Kryo kryo, Input input, Class type, int size) {
            requireBytesFor(size, 1, input, "a " + type.getName());
            return super.create(kryo, input, type, size);
          }
        };
      }
      if (c == MapSerializer.class) {
        return new MapSerializer() {
          @Override
          protected Map create(Kryo kryo, Input input, Class type, int size) {
            requireBytesFor(size, 2, input, "a " + type.getName()); // a key and a value
            return super.create(kryo, input, type, size);
          }
        };
      }
      if (type.isArray()) {
        return new LengthCheckedArray(s);
      }
      return s;
    }

    /** Kryo's serializer for an array type, with the length it reads first checked before it allocates. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static final class LengthCheckedArray extends Serializer<Object> {
      private final Serializer inner;

      LengthCheckedArray(Serializer inner) {
        super(inner.getAcceptsNull(), inner.isImmutable());
        this.inner = inner;
      }

      @Override
      public void write(Kryo kryo, Output output, Object array) {
        inner.write(kryo, output, array);
      }

      @Override
      public Object read(Kryo kryo, Input input, Class<?> type) {
        requireBytesFor(peekLength(input), 1, input, "an array of " + type.getComponentType().getName());
        return inner.read(kryo, input, type);
      }

      @Override
      public Object copy(Kryo kryo, Object original) {
        return inner.copy(kryo, original);
      }
    }

    /** The array length the array serializers read first (written as length + 1, 0 for null). */
    private static long peekLength(Input input) {
      int at = input.position();
      int lengthPlusOne = input.readVarInt(true);
      input.setPosition(at);
      return Math.max(0, lengthPlusOne - 1L);
    }
  }

  byte[] write(Object v) {
    Output out = new Output(4096, -1);
    try {
      kryo.writeClassAndObject(out, v);
    } catch (KryoException e) {
      throw new IllegalArgumentException("cannot dump " + v.getClass().getName() + ": it is neither a type"
          + " joblib4j stores as data, nor Serializable, and Kryo failed on it: " + e.getMessage(), e);
    }
    return out.toBytes();
  }

  /**
   * Reads one object. A {@link JoblibException} from the allow-list or the heap budget is rethrown as is, however
   * deeply Kryo wrapped it.
   */
  Object read(byte[] bytes) {
    try {
      return kryo.readClassAndObject(new BoundedInput(bytes));
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof JoblibException) {
          throw (JoblibException) t; // a refused class, or the heap budget
        }
      }
      throw e;
    }
  }

  /** NDArray inside a Kryo object: via its Java serial form (heap copy of the elements). */
  private static final class NDArraySerializer extends Serializer<NDArray> {
    @Override
    public void write(Kryo kryo, Output output, NDArray a) {
      try {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(b)) {
          o.writeObject(a);
        }
        output.writeVarInt(b.size(), true);
        output.writeBytes(b.toByteArray());
      } catch (IOException e) {
        throw new KryoException(e);
      }
    }

    @Override
    public NDArray read(Kryo kryo, Input input, Class<? extends NDArray> type) {
      int n = input.readVarInt(true);
      if (n > input.limit() - input.position()) {
        throw new KryoException("NDArray of " + n + " bytes in " + (input.limit() - input.position()));
      }
      byte[] b = input.readBytes(n);
      try (var in = new JavaCodec.FilteredInput(new ByteArrayInputStream(b), JavaCodec.ONLY_ARRAYS, b.length, 8, null)) {
        return (NDArray) in.readObject();
      } catch (IOException | ClassNotFoundException | ClassCastException e) {
        throw new KryoException("corrupt NDArray: " + e, e);
      }
    }
  }
}
