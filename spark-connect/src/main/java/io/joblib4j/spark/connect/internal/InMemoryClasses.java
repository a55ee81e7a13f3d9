package io.joblib4j.spark.connect.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The class files of classes a REPL or notebook keeps in memory: their loader has no code source
 * to point at but usually serves the bytes it defined them from as a resource (Scala's
 * {@code AbstractFileClassLoader} does). Each goes to the session as a class artifact.
 */
final class InMemoryClasses {
  /** A REPL's class is small; anything larger is not what is looked for. */
  private static final int MAX_CLASS_FILE = 16 << 20;

  private InMemoryClasses() {}

  /** The class file's path in a class folder; a hidden class (a lambda's) has none: its host's. */
  static String classFile(Class<?> type) {
    Class<?> file = type.isHidden() ? type.getNestHost() : type;
    return file.getName().replace('.', '/') + ".class";
  }

  /**
   * The class files of {@code type} and of the member classes it declares (which its code may use
   * without their objects being sent), as its loader serves them; empty if it does not serve the
   * type's own.
   */
  static Map<String, byte[]> withMembers(Class<?> type) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    add(type, out, 0);
    return out;
  }

  private static void add(Class<?> type, Map<String, byte[]> out, int depth) {
    String file = classFile(type);
    if (out.containsKey(file) || type.getClassLoader() == null) {
      return;
    }
    byte[] bytes = read(type.getClassLoader(), file);
    if (bytes == null) {
      return;
    }
    out.put(file, bytes);
    if (depth < 4) {
      Class<?>[] members;
      try {
        members = type.getDeclaredClasses();
      } catch (LinkageError | SecurityException unreadable) {
        return;
      }
      for (Class<?> m : members) {
        add(m, out, depth + 1);
      }
    }
  }

  private static byte[] read(ClassLoader loader, String file) {
    try (InputStream in = loader.getResourceAsStream(file)) {
      if (in == null) {
        return null;
      }
      byte[] bytes = in.readNBytes(MAX_CLASS_FILE + 1);
      return bytes.length > MAX_CLASS_FILE || bytes.length < 4 ? null : bytes;
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }
}
