package io.joblib4j.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * Java serialization as tests use it: what a value becomes when it is shipped to another JVM (a
 * Spark executor, a child worker) and read back there.
 */
public final class JavaSerialized {
  private JavaSerialized() {}

  /** The value's serialized form. */
  public static byte[] bytes(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize " + value, e);
    }
    return bytes.toByteArray();
  }

  /** The value {@code bytes} hold. */
  @SuppressWarnings("unchecked")
  public static <T> T read(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return (T) in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A copy of {@code value} made by serializing it and reading it back. */
  public static <T> T roundTrip(T value) {
    return read(bytes(value));
  }
}
