package io.joblib4j.internal.persist.npy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.array.DType;
import io.joblib4j.internal.array.Shapes;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The header of a {@code .npy} file (numpy's {@code numpy/lib/format.py}): the magic {@code
 * \x93NUMPY}, a format version (1.0, 2.0 or 3.0), the header's length (2 bytes little-endian in 1.0,
 * 4 in 2.0 and 3.0), then a Python dict literal with exactly the keys {@code 'descr'}, {@code
 * 'fortran_order'} and {@code 'shape'} (Latin-1 text in 1.0 and 2.0, UTF-8 in 3.0), padded with
 * spaces and a newline so that the data starts at a multiple of 64 bytes.
 *
 * @param major the format's major version (1, 2 or 3)
 * @param descr the element type and byte order
 * @param fortranOrder whether the data is in Fortran (column-major) order
 * @param shape the length of each axis
 * @param dataOffset where the data starts, from the start of the file
 */
record NpyHeader(int major, NpyDescr descr, boolean fortranOrder, long[] shape, long dataOffset) {
  /** {@code \x93NUMPY}. */
  static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  /** numpy's alignment of the data (and so of the header's end). */
  static final int ALIGNMENT = 64;
  /**
   * The longest header read: 1 MiB. numpy writes a plain array's header in under a kilobyte (it
   * reads at most 10,000 bytes unless told otherwise); the bound is what a hostile length can cost.
   */
  static final int MAX_HEADER = 1 << 20;
  private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

  /** Reads exactly {@code n} bytes, or throws {@link EOFException}. */
  interface Input {
    byte[] readFully(int n) throws IOException;
  }

  /** Whether {@code head} starts with numpy's magic. */
  static boolean isNpy(byte[] head) {
    return head.length >= MAGIC.length && Arrays.equals(head, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /** The number of array bytes the header declares. */
  long dataBytes() {
    return Shapes.bytes(shape, descr.dtype());
  }

  /**
   * Reads and checks a header from {@code in}, whose whole length (from the magic on) is at most
   * {@code available} bytes ({@code Long.MAX_VALUE} for a stream of unknown length): the header's
   * length and the data the shape declares must fit in it. Errors name {@code source}.
   */
  static NpyHeader read(Input in, long available, String source) throws IOException {
    byte[] start;
    try {
      start = in.readFully(MAGIC.length + 2);
    } catch (EOFException e) {
      throw new CorruptFileException(source, "truncated numpy file: it ends inside the magic and version ("
          + available + " bytes)");
    }
    if (!isNpy(start)) {
      throw new CorruptFileException(source, "not a numpy .npy file: bad magic bytes");
    }
    int major = start[6] & 0xff;
    int minor = start[7] & 0xff;
    if (major < 1 || major > 3 || minor != 0) {
      throw new CorruptFileException(source, "numpy format version " + major + "." + minor + " is not one"
          + " joblib4j reads (1.0, 2.0 and 3.0; numpy writes 1.0 unless a header needs more)");
    }
    int lengthBytes = major == 1 ? 2 : 4;
    long headerLength;
    try {
      ByteBuffer len = ByteBuffer.wrap(in.readFully(lengthBytes)).order(ByteOrder.LITTLE_ENDIAN);
      headerLength = major == 1 ? len.getShort() & 0xffff : len.getInt() & 0xffffffffL;
    } catch (EOFException e) {
      throw new CorruptFileException(source, "truncated numpy file: it ends inside the header's length");
    }
    long prefix = MAGIC.length + 2 + lengthBytes;
    if (headerLength > MAX_HEADER) {
      throw new CorruptFileException(source, "the numpy header claims " + headerLength + " bytes, more than the "
          + MAX_HEADER + " joblib4j reads (numpy itself writes a plain array's header in under a kilobyte)");
    }
    if (headerLength > available - prefix) {
      throw new CorruptFileException(source, "truncated numpy file: the header claims " + headerLength
          + " bytes but only " + (available - prefix) + " follow");
    }
    byte[] text;
    try {
      text = in.readFully((int) headerLength);
    } catch (EOFException e) {
      throw new CorruptFileException(source, "truncated numpy file: it ends inside the header ("
          + headerLength + " bytes declared)");
    }
    String dict = major == 3 ? utf8(text, source) : new String(text, StandardCharsets.ISO_8859_1);
    Map<String, Object> d;
    try {
      d = PyLiteral.parseDict(dict);
    } catch (PyLiteral.BadLiteral e) {
      throw new CorruptFileException(source, "bad numpy header: " + e.getMessage());
    }
    if (!d.keySet().equals(KEYS)) {
      throw new CorruptFileException(source, "bad numpy header: its keys are " + d.keySet()
          + ", not exactly 'descr', 'fortran_order' and 'shape'");
    }
    Object fortran = d.get("fortran_order");
    if (!(fortran instanceof Boolean)) {
      throw new CorruptFileException(source, "bad numpy header: 'fortran_order' is " + fortran
          + ", not True or False");
    }
    long[] shape = shape(d.get("shape"), source);
    NpyDescr descr = NpyDescr.parse(d.get("descr"), source);
    long dataOffset = prefix + headerLength;
    long bytes;
    try {
      bytes = Shapes.bytes(shape, descr.dtype());
    } catch (IllegalArgumentException e) {
      throw new CorruptFileException(source, "bad numpy header: the shape " + Arrays.toString(shape)
          + " of " + descr.dtype().numpyName() + " has more bytes than a file can hold");
    }
    if (bytes > available - dataOffset) {
      throw new CorruptFileException(source, "truncated numpy file: the shape " + Arrays.toString(shape) + " of "
          + descr.dtype().numpyName() + " needs " + bytes + " bytes of data but only "
          + (available - dataOffset) + " follow the header");
    }
    return new NpyHeader(major, descr, (Boolean) fortran, shape, dataOffset);
  }

  private static long[] shape(Object value, String source) {
    if (!(value instanceof PyLiteral.Tuple)) {
      throw new CorruptFileException(source, "bad numpy header: 'shape' is " + abbreviate(String.valueOf(value))
          + ", not a tuple of lengths");
    }
    List<Object> items = (PyLiteral.Tuple) value;
    if (items.size() > Shapes.MAX_DIMS) {
      throw new CorruptFileException(source, "the numpy array has " + items.size() + " dimensions; NDArray has"
          + " at most " + Shapes.MAX_DIMS);
    }
    long[] shape = new long[items.size()];
    for (int i = 0; i < shape.length; i++) {
      Object o = items.get(i);
      if (!(o instanceof Long) || (Long) o < 0) {
        throw new CorruptFileException(source, "bad numpy header: 'shape' " + abbreviate(value.toString())
            + " holds " + o + ", not a length (a non-negative integer)");
      }
      shape[i] = (Long) o;
    }
    return shape;
  }

  private static String utf8(byte[] text, String source) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(text)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new CorruptFileException(source, "bad numpy header: a version 3.0 header that is not UTF-8");
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }

  /**
   * The header numpy writes for an array of {@code dtype} and {@code shape}: version 1.0 unless the
   * dict needs more than 65,535 bytes (then 2.0), the dict padded with spaces and ended with a
   * newline so that the whole header is a multiple of 64 bytes.
   */
  static byte[] encode(DType dtype, boolean fortranOrder, long[] shape) {
    StringBuilder sb = new StringBuilder("{'descr': '")
        .append(new NpyDescr(dtype, ByteOrder.LITTLE_ENDIAN).toDescr())
        .append("', 'fortran_order': ").append(fortranOrder ? "True" : "False").append(", 'shape': (");
    for (int i = 0; i < shape.length; i++) {
      sb.append(i > 0 ? ", " : "").append(shape[i]);
    }
    sb.append(shape.length == 1 ? ",), }" : "), }");
    byte[] dict = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    int major = dict.length + 1 + MAGIC.length + 4 > 65535 ? 2 : 1;
    int prefix = MAGIC.length + 2 + (major == 1 ? 2 : 4);
    int total = (prefix + dict.length + 1 + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).put((byte) major).put((byte) 0);
    int headerLength = total - prefix;
    if (major == 1) {
      b.putShort((short) headerLength);
    } else {
      b.putInt(headerLength);
    }
    b.put(dict);
    while (b.position() < total - 1) {
      b.put((byte) ' ');
    }
    b.put((byte) '\n');
    return b.array();
  }
}
