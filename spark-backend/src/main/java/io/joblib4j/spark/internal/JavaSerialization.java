package io.joblib4j.spark.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.util.Map;

/**
 * Java serialization as the channel uses it: objects listed in a replacement map are written as
 * their replacement (a large argument becomes a reference to its broadcast), and classes are
 * resolved through a given class loader (an executor's task loader holds the user's jars, a
 * notebook driver's context loader its REPL classes).
 */
final class JavaSerialization {
  private JavaSerialization() {}

  /** {@code value} serialized, with each object that is a key of {@code replacements} (by identity) swapped. */
  static byte[] serialize(Object value, Map<Object, Object> replacements) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (ObjectOutputStream out = new Replacing(bytes, replacements)) {
      out.writeObject(value);
    }
    return bytes.toByteArray();
  }

  static byte[] serialize(Object value) throws IOException {
    return serialize(value, Map.of());
  }

  /** Reads one object from {@code in}, resolving classes through {@code loader}. */
  static Object deserialize(InputStream in, ClassLoader loader) throws IOException, ClassNotFoundException {
    try (ObjectInputStream objects = new LoaderAware(in, loader)) {
      return objects.readObject();
    }
  }

  static Object deserialize(byte[] bytes, ClassLoader loader) throws IOException, ClassNotFoundException {
    return deserialize(new java.io.ByteArrayInputStream(bytes), loader);
  }

  private static final class Replacing extends ObjectOutputStream {
    private final Map<Object, Object> replacements;

    Replacing(OutputStream out, Map<Object, Object> replacements) throws IOException {
      super(out);
      this.replacements = replacements;
      if (!replacements.isEmpty()) {
        enableReplaceObject(true);
      }
    }

    @Override
    protected Object replaceObject(Object obj) {
      Object r = replacements.get(obj);
      return r != null ? r : obj;
    }
  }

  private static final class LoaderAware extends ObjectInputStream {
    private final ClassLoader loader;

    LoaderAware(InputStream in, ClassLoader loader) throws IOException {
      super(in);
      this.loader = loader;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
      try {
        return Class.forName(desc.getName(), false, loader);
      } catch (ClassNotFoundException e) {
        return super.resolveClass(desc); // primitives and the JDK's own classes
      }
    }
  }
}
