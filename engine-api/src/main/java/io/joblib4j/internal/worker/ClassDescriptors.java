package io.joblib4j.internal.worker;

import io.joblib4j.spi.worker.WireFormat;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.Map;

/**
 * Class descriptors written as the class name alone. Java serialization normally writes every
 * field's name and type signature for each class in each stream, and parsing them is most of the
 * cost of reading a small batch; a worker loads the very same class files as its parent (the same
 * JDK, the same class path), so the receiving side takes the descriptor from its own class instead.
 * Only {@link WireFormat#SAME_CLASS_FILES} streams write descriptors this way; {@link #load} serves
 * every stream.
 */
final class ClassDescriptors {
  private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
      "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
      "double", double.class, "void", void.class);

  private ClassDescriptors() {}

  static void write(ObjectOutputStream out, ObjectStreamClass desc) throws IOException {
    out.writeUTF(desc.getName());
  }

  static ObjectStreamClass read(ObjectInputStream in, ClassLoader first) throws IOException, ClassNotFoundException {
    String name = in.readUTF();
    Class<?> c = load(name, first);
    ObjectStreamClass desc = ObjectStreamClass.lookupAny(c);
    if (desc == null) {
      throw new InvalidClassException(name, "no serialization descriptor");
    }
    return desc;
  }

  /** {@code name} from {@code first}, else from joblib4j's own loader (JDK classes, primitives' arrays). */
  static Class<?> load(String name, ClassLoader first) throws ClassNotFoundException {
    Class<?> primitive = PRIMITIVES.get(name); // Class objects of primitives, e.g. double.class
    if (primitive != null) {
      return primitive;
    }
    if (first != null) {
      try {
        return Class.forName(name, false, first);
      } catch (ClassNotFoundException e) {
        // fall through
      }
    }
    return Class.forName(name, false, ClassDescriptors.class.getClassLoader());
  }
}
