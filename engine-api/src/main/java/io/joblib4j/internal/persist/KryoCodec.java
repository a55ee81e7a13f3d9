package io.joblib4j.internal.persist;

import com.esotericsoftware.kryo.kryo5.Kryo;
import com.esotericsoftware.kryo.kryo5.KryoException;
import com.esotericsoftware.kryo.kryo5.Serializer;
import com.esotericsoftware.kryo.kryo5.io.Input;
import com.esotericsoftware.kryo.kryo5.io.Output;
import com.esotericsoftware.kryo.kryo5.objenesis.strategy.StdInstantiatorStrategy;
import com.esotericsoftware.kryo.kryo5.util.DefaultClassResolver;
import com.esotericsoftware.kryo.kryo5.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.kryo5.util.MapReferenceResolver;
import io.joblib4j.UnsafeClassException;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;

/**
 * Kryo 5 for objects that are neither data the codec knows nor Serializable. Classes are written by
 * name; on read every name goes through the {@link AllowList} before Kryo loads the class, so a
 * refused class is never instantiated. Array lengths are checked against the bytes left before
 * Kryo allocates, and nesting is capped, so hostile payloads fail cleanly.
 */
final class KryoCodec {
  private final Kryo kryo;

  private KryoCodec(Kryo kryo) {
    this.kryo = kryo;
  }

  static KryoCodec forWriting() {
    return new KryoCodec(configure(new Kryo(new DefaultClassResolver(), new MapReferenceResolver()), contextLoader(), 1000));
  }

  static KryoCodec forReading(AllowList allow, int maxDepth) {
    DefaultClassResolver resolver = new DefaultClassResolver() {
      @Override
      protected Class<?> getTypeByName(String className) {
        allow.check(className); // before Kryo's Class.forName, so before any instance
        return super.getTypeByName(className);
      }
    };
    return new KryoCodec(configure(new Kryo(resolver, new MapReferenceResolver()), allow.loader(), maxDepth));
  }

  private static ClassLoader contextLoader() {
    ClassLoader l = Thread.currentThread().getContextClassLoader();
    return l != null ? l : KryoCodec.class.getClassLoader();
  }

  private static Kryo configure(Kryo k, ClassLoader loader, int maxDepth) {
    // unregistered classes are written by name; safety comes from the allow-list, not from IDs
    k.setRegistrationRequired(false);
    k.setReferences(true);
    k.setMaxDepth(maxDepth);
    k.setClassLoader(loader);
    k.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
    k.addDefaultSerializer(NDArray.class, new NDArraySerializer());
    guardArray(k, byte[].class, 1);
    guardArray(k, boolean[].class, 1);
    guardArray(k, short[].class, 2);
    guardArray(k, char[].class, 2);
    guardArray(k, int[].class, 1); // varint-encoded: at least a byte each
    guardArray(k, long[].class, 1);
    guardArray(k, float[].class, 4);
    guardArray(k, double[].class, 8);
    guardArray(k, String[].class, 1);
    return k;
  }

  /** Wraps Kryo's array serializer so a length over the bytes left is refused before allocation. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void guardArray(Kryo k, Class<?> type, int minBytesPerElement) {
    Serializer inner = k.getRegistration(type).getSerializer();
    k.getRegistration(type).setSerializer(new Serializer<Object>() {
      @Override
      public void write(Kryo kryo, Output output, Object object) {
        inner.write(kryo, output, object);
      }

      @Override
      public Object read(Kryo kryo, Input input, Class<?> t) {
        int at = input.position();
        int lengthPlusOne = input.readVarInt(true);
        input.setPosition(at);
        long left = input.limit() - at;
        if ((long) (lengthPlusOne - 1) * minBytesPerElement > left) {
          throw new KryoException("array of " + (lengthPlusOne - 1) + " elements in " + left + " bytes");
        }
        return inner.read(kryo, input, t);
      }
    });
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
   * Reads one object. An {@link UnsafeClassException} from the allow-list is rethrown as is, however
   * deeply Kryo wrapped it.
   */
  Object read(byte[] bytes) {
    try {
      return kryo.readClassAndObject(new Input(bytes));
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof UnsafeClassException) {
          throw (UnsafeClassException) t;
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
      try (var in = new JavaCodec.FilteredInput(new ByteArrayInputStream(b), JavaCodec.ONLY_ARRAYS, b.length, 8)) {
        return (NDArray) in.readObject();
      } catch (IOException | ClassNotFoundException | ClassCastException e) {
        throw new KryoException("corrupt NDArray: " + e, e);
      }
    }
  }
}
