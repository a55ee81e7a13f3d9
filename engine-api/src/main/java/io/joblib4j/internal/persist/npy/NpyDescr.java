package io.joblib4j.internal.persist.npy;

import io.joblib4j.CorruptFileException;
import io.joblib4j.JoblibException;
import io.joblib4j.array.DType;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * A {@code .npy} header's {@code 'descr'}: numpy's dtype string ({@code '<f8'}, {@code '|b1'},
 * {@code '>i4'}) as an {@link DType} and a byte order. A numpy dtype NDArray does not have is
 * refused by name; an object dtype ({@code '|O'}) is refused as the pickle it is.
 *
 * @param dtype the element type
 * @param order the byte order of the elements in the file
 */
record NpyDescr(DType dtype, ByteOrder order) {
  private static final String SUPPORTED = "float64, float32, int64, int32, int16, int8, uint8 and bool";

  /** Names of numpy's types that NDArray has no dtype for, by kind and item size. */
  private static final Map<String, String> OTHERS = Map.ofEntries(
      Map.entry("c8", "complex64"), Map.entry("c16", "complex128"), Map.entry("c32", "complex256"),
      Map.entry("c24", "complex192"), Map.entry("f2", "float16"), Map.entry("f12", "float96"),
      Map.entry("f16", "float128"), Map.entry("u2", "uint16"), Map.entry("u4", "uint32"),
      Map.entry("u8", "uint64"));

  /** The descr as numpy writes it for this dtype and order. */
  String toDescr() {
    if (dtype.itemSize() == 1) {
      return "|" + kindAndSize(dtype);
    }
    return (order == ByteOrder.BIG_ENDIAN ? ">" : "<") + kindAndSize(dtype);
  }

  private static String kindAndSize(DType d) {
    switch (d) {
      case FLOAT64: return "f8";
      case FLOAT32: return "f4";
      case INT64: return "i8";
      case INT32: return "i4";
      case INT16: return "i2";
      case INT8: return "i1";
      case UINT8: return "u1";
      default: return "b1";
    }
  }

  /**
   * The dtype of {@code descr} as the header holds it (a String for a plain dtype, a list for a
   * structured one). {@code source} names the file in errors.
   */
  static NpyDescr parse(Object descr, String source) {
    if (!(descr instanceof String)) {
      if (descr instanceof java.util.List) {
        throw unsupported(source, "a structured numpy dtype (fields " + abbreviate(descr.toString()) + ")",
            "NDArray holds one numeric type per array: save each field as an array of its own");
      }
      throw new CorruptFileException(source, "the numpy header's 'descr' is " + abbreviate(String.valueOf(descr))
          + ", not a dtype string such as '<f8'");
    }
    String s = (String) descr;
    TypeString t = TypeString.parse(s);
    if (t == null) {
      throw unsupported(source, "numpy dtype '" + abbreviate(s) + "'", null);
    }
    String kind = t.kind;
    String size = t.size;
    if (kind.equals("O")) {
      throw new JoblibException(source + ": holds Python objects (numpy dtype '" + s + "', object): its data is"
          + " a pickle, and joblib4j never runs pickles, which can run any code. Save a numeric array"
          + " instead (in numpy: a.astype('float64') or another numeric dtype), or convert the objects to"
          + " numbers or strings before saving");
    }
    ByteOrder order = switch (t.order) {
      case '>' -> ByteOrder.BIG_ENDIAN;
      case '=' -> ByteOrder.nativeOrder(); // numpy's "native": as numpy itself reads it here
      default -> ByteOrder.LITTLE_ENDIAN; // '<', or '|' / nothing for one-byte types
    };
    String ks = kind + size;
    DType d = switch (ks) {
      case "f8", "d" -> DType.FLOAT64;
      case "f4", "f" -> DType.FLOAT32;
      case "i8", "q" -> DType.INT64;
      case "i4" -> DType.INT32;
      case "i2", "h" -> DType.INT16;
      case "i1", "b" -> DType.INT8;
      case "u1", "B" -> DType.UINT8;
      case "b1", "?" -> DType.BOOL;
      default -> null;
    };
    if (d == null || t.unit) {
      throw unsupported(source, "numpy dtype '" + s + "'" + describe(kind, size), null);
    }
    return new NpyDescr(d, d.itemSize() == 1 ? ByteOrder.LITTLE_ENDIAN : order);
  }

  private static String describe(String kind, String size) {
    String named = OTHERS.get(kind + size);
    if (named != null) {
      return " (" + named + ")";
    }
    switch (kind) {
      case "S": return " (bytes, numpy's bytes_)";
      case "a": return " (bytes, numpy's bytes_)";
      case "U": return " (str, numpy's str_)";
      case "V": return " (void: raw bytes)";
      case "M": return " (datetime64)";
      case "m": return " (timedelta64)";
      case "T": return " (StringDType)";
      default: return "";
    }
  }

  private static JoblibException unsupported(String source, String what, String advice) {
    return new JoblibException(source + ": " + what + " has no NDArray dtype; NDArray has "
        + SUPPORTED + ". " + (advice != null ? advice : "Convert it in numpy before saving, e.g. a.astype('float64')"));
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }

  /**
   * numpy's type string: an optional byte order ({@code < > | =}), a kind letter (or {@code ?}), up
   * to six digits of item size, and for datetimes a unit in brackets ({@code [D]}, {@code [ns]}).
   * Read by hand: the first map of a file in a JVM would otherwise pay for compiling a pattern.
   */
  private static final class TypeString {
    char order;
    String kind;
    String size;
    boolean unit;

    static TypeString parse(String s) {
      TypeString t = new TypeString();
      int i = 0;
      if (i < s.length() && "<>|=".indexOf(s.charAt(i)) >= 0) {
        t.order = s.charAt(i++);
      }
      if (i >= s.length()) {
        return null;
      }
      char k = s.charAt(i++);
      if (!(k >= 'a' && k <= 'z' || k >= 'A' && k <= 'Z' || k == '?')) {
        return null;
      }
      t.kind = String.valueOf(k);
      int digits = i;
      while (i < s.length() && i - digits < 7 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        i++;
      }
      if (i - digits > 6) {
        return null;
      }
      t.size = s.substring(digits, i);
      if (i < s.length() && s.charAt(i) == '[') {
        int close = s.indexOf(']', i);
        if (close < 0 || close - i - 1 < 1 || close - i - 1 > 10) {
          return null;
        }
        for (int c = i + 1; c < close; c++) {
          char u = s.charAt(c);
          if (!(Character.isLetterOrDigit(u) || u == '_')) {
            return null;
          }
        }
        t.unit = true;
        i = close + 1;
      }
      return i == s.length() ? t : null;
    }
  }
}
