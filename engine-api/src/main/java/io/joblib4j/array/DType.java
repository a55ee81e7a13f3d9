package io.joblib4j.array;

import org.apiguardian.api.API;

/**
 * The element type of an {@link NDArray}, with numpy's names. Elements are stored little-endian;
 * {@code BOOL} is one byte, 0 or 1; {@code UINT8} reads as 0..255.
 */
@API(status = API.Status.STABLE, since = "0.1")
public enum DType {
  /** 64-bit IEEE 754 floating point, numpy's {@code float64}. */
  FLOAT64("float64", 8, 1),
  /** 32-bit IEEE 754 floating point, numpy's {@code float32}. */
  FLOAT32("float32", 4, 2),
  /** 64-bit signed integer, numpy's {@code int64}. */
  INT64("int64", 8, 3),
  /** 32-bit signed integer, numpy's {@code int32}. */
  INT32("int32", 4, 4),
  /** 16-bit signed integer, numpy's {@code int16}. */
  INT16("int16", 2, 5),
  /** 8-bit signed integer, numpy's {@code int8}. */
  INT8("int8", 1, 6),
  /** 8-bit unsigned integer, numpy's {@code uint8}. */
  UINT8("uint8", 1, 7),
  /** A boolean in one byte, 0 or 1, numpy's {@code bool}. */
  BOOL("bool", 1, 8);

  private final String numpyName;
  private final int itemSize;
  private final int code;

  DType(String numpyName, int itemSize, int code) {
    this.numpyName = numpyName;
    this.itemSize = itemSize;
    this.code = code;
  }

  /**
   * numpy's name for this type, e.g. {@code "float64"}.
   *
   * @return the name
   */
  public String numpyName() {
    return numpyName;
  }

  /**
   * Bytes per element.
   *
   * @return 1, 2, 4 or 8
   */
  public int itemSize() {
    return itemSize;
  }

  /**
   * Whether elements are floating point.
   *
   * @return true for FLOAT64 and FLOAT32
   */
  public boolean isFloatingPoint() {
    return this == FLOAT64 || this == FLOAT32;
  }

  /**
   * The stable code the container format uses for this type (1..8).
   *
   * @return the code
   */
  public int code() {
    return code;
  }

  /**
   * The type for a container code, or {@code null} if the code is unknown.
   *
   * @param code a code from a container
   * @return the type, or {@code null}
   */
  public static DType fromCode(int code) {
    for (DType d : values()) {
      if (d.code == code) {
        return d;
      }
    }
    return null;
  }

  /**
   * The type of a numpy name ({@code "float64"}, {@code "f8"}, {@code "<f8"}, {@code "double"},
   * ...).
   *
   * @param name a numpy dtype name
   * @return the type
   * @throws IllegalArgumentException for names of other types
   */
  public static DType fromNumpyName(String name) {
    String n = name.startsWith("<") || name.startsWith("|") || name.startsWith("=") ? name.substring(1) : name;
    switch (n) {
      case "float64": case "f8": case "double": case "d": return FLOAT64;
      case "float32": case "f4": case "single": case "f": return FLOAT32;
      case "int64": case "i8": case "q": return INT64;
      case "int32": case "i4": case "i": return INT32;
      case "int16": case "i2": case "h": return INT16;
      case "int8": case "i1": case "b": return INT8;
      case "uint8": case "u1": case "B": return UINT8;
      case "bool": case "b1": case "?": return BOOL;
      default:
        throw new IllegalArgumentException("Unsupported dtype \"" + name
            + "\"; supported: float64, float32, int64, int32, int16, int8, uint8, bool");
    }
  }
}
