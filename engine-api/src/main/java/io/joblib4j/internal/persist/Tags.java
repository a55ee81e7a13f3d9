package io.joblib4j.internal.persist;

/** One-byte tags of the object stream (FORMAT.md, "Values"). */
final class Tags {
  static final int NULL = 0;
  static final int FALSE = 1;
  static final int TRUE = 2;
  static final int BYTE = 3;
  static final int SHORT = 4;
  static final int CHAR = 5;
  static final int INT = 6;
  static final int LONG = 7;
  static final int FLOAT = 8;
  static final int DOUBLE = 9;
  static final int STRING = 10;
  static final int BIG_INTEGER = 11;
  static final int BIG_DECIMAL = 12;
  static final int ARRAY_INLINE = 13;
  static final int ARRAY_BLOB = 14;
  static final int NDARRAY = 15;
  static final int OBJECT_ARRAY = 16;
  static final int LIST = 17;
  static final int SET = 18;
  static final int MAP = 19;
  static final int ENUM = 20;
  static final int RECORD = 21;
  static final int OPTIONAL_EMPTY = 22;
  static final int OPTIONAL = 23;
  static final int UUID = 24;
  static final int TIME = 25;
  static final int JAVA = 26;
  static final int KRYO = 27;

  /** Primitive element types of ARRAY_INLINE / ARRAY_BLOB (and BLOB record subtypes). */
  static final int E_BYTE = 1;
  static final int E_SHORT = 2;
  static final int E_INT = 3;
  static final int E_LONG = 4;
  static final int E_FLOAT = 5;
  static final int E_DOUBLE = 6;
  static final int E_CHAR = 7;
  static final int E_BOOLEAN = 8;

  /** Collection kinds: what class the reader rebuilds. */
  static final int C_PLAIN = 0; // ArrayList / HashSet / HashMap
  static final int C_LINKED = 1; // LinkedList / LinkedHashSet / LinkedHashMap
  static final int C_SORTED = 2; // -, TreeSet, TreeMap (natural order)
  static final int C_UNMODIFIABLE = 3; // List.of, Collections.unmodifiable*, ... (insertion order kept)

  /** java.time kinds of TIME, each stored as its ISO-8601 toString(). */
  static final int T_INSTANT = 1;
  static final int T_LOCAL_DATE = 2;
  static final int T_LOCAL_TIME = 3;
  static final int T_LOCAL_DATE_TIME = 4;
  static final int T_OFFSET_DATE_TIME = 5;
  static final int T_ZONED_DATE_TIME = 6;
  static final int T_DURATION = 7;
  static final int T_PERIOD = 8;
  static final int T_ZONE_ID = 9;
  static final int T_YEAR_MONTH = 10;

  static int elementSize(int e) {
    switch (e) {
      case E_BYTE: case E_BOOLEAN: return 1;
      case E_SHORT: case E_CHAR: return 2;
      case E_INT: case E_FLOAT: return 4;
      case E_LONG: case E_DOUBLE: return 8;
      default: return -1;
    }
  }

  private Tags() {}
}
