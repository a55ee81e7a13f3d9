package io.joblib4j.internal.worker;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.StreamCorruptedException;

/**
 * Writes the values tasks are typically made of — boxed primitives and short strings — as a tag
 * byte and the raw value, and anything else as an ordinary serialized object. Java serialization
 * spends about a microsecond on each small object (class descriptor handle, field reflection,
 * handle table), which for tiny tasks is more than the task itself.
 */
final class TaggedValues {
  private static final byte OBJECT = 0;
  private static final byte NULL = 1;
  private static final byte INT = 2;
  private static final byte LONG = 3;
  private static final byte DOUBLE = 4;
  private static final byte STRING = 5;
  private static final byte TRUE = 6;
  private static final byte FALSE = 7;
  private static final byte FLOAT = 8;
  /** writeUTF's limit is 65535 bytes of modified UTF-8; a char takes at most 3. */
  private static final int MAX_UTF_CHARS = 65535 / 3;

  private TaggedValues() {}

  /**
   * Whether {@code v} is written as a tag and its raw value: null, a boxed primitive other than
   * {@code Character}, {@code Short} or {@code Byte}, or a string of at most 21,845 chars.
   */
  static boolean isPlain(Object v) {
    if (v == null) {
      return true;
    }
    Class<?> c = v.getClass();
    return c == Integer.class || c == Long.class || c == Double.class || c == Float.class || c == Boolean.class
        || c == String.class && ((String) v).length() <= MAX_UTF_CHARS;
  }

  static void write(ObjectOutputStream out, Object v) throws IOException {
    if (isPlain(v)) {
      writePlain(out, v);
    } else {
      out.writeByte(OBJECT);
      out.writeObject(v);
    }
  }

  /** Writes {@code v}, which {@link #isPlain} accepted. */
  static void writePlain(DataOutput out, Object v) throws IOException {
    if (v == null) {
      out.writeByte(NULL);
    } else if (v.getClass() == Integer.class) {
      out.writeByte(INT);
      out.writeInt((Integer) v);
    } else if (v.getClass() == Long.class) {
      out.writeByte(LONG);
      out.writeLong((Long) v);
    } else if (v.getClass() == Double.class) {
      out.writeByte(DOUBLE);
      out.writeDouble((Double) v);
    } else if (v.getClass() == Float.class) {
      out.writeByte(FLOAT);
      out.writeFloat((Float) v);
    } else if (v.getClass() == Boolean.class) {
      out.writeByte((Boolean) v ? TRUE : FALSE);
    } else {
      out.writeByte(STRING);
      out.writeUTF((String) v);
    }
  }

  static Object read(ObjectInputStream in) throws IOException, ClassNotFoundException {
    byte tag = in.readByte();
    return tag == OBJECT ? in.readObject() : readPlain(in, tag);
  }

  /** A value {@link #writePlain} wrote; anything else is refused. */
  static Object readPlain(DataInput in) throws IOException {
    return readPlain(in, in.readByte());
  }

  private static Object readPlain(DataInput in, byte tag) throws IOException {
    return switch (tag) {
      case NULL -> null;
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case DOUBLE -> in.readDouble();
      case FLOAT -> in.readFloat();
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case STRING -> in.readUTF();
      default -> throw new StreamCorruptedException("unknown value tag " + tag);
    };
  }
}
