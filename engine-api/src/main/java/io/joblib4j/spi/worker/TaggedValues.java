package io.joblib4j.spi.worker;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

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

  static void write(ObjectOutputStream out, Object v) throws IOException {
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
    } else if (v.getClass() == String.class && ((String) v).length() <= MAX_UTF_CHARS) {
      out.writeByte(STRING);
      out.writeUTF((String) v);
    } else {
      out.writeByte(OBJECT);
      out.writeObject(v);
    }
  }

  static Object read(ObjectInputStream in) throws IOException, ClassNotFoundException {
    byte tag = in.readByte();
    return switch (tag) {
      case NULL -> null;
      case INT -> in.readInt();
      case LONG -> in.readLong();
      case DOUBLE -> in.readDouble();
      case FLOAT -> in.readFloat();
      case TRUE -> Boolean.TRUE;
      case FALSE -> Boolean.FALSE;
      case STRING -> in.readUTF();
      case OBJECT -> in.readObject();
      default -> throw new java.io.StreamCorruptedException("unknown value tag " + tag);
    };
  }
}
