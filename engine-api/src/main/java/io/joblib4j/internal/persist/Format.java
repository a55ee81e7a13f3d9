package io.joblib4j.internal.persist;

/** Constants of the container format; FORMAT.md is the prose version of this file. */
final class Format {
  /** {@code \x89 J L 4 J \r \n \x1a}: not text, not a pickle, not any codec's magic; CR-LF catches mangling. */
  static final byte[] MAGIC = {(byte) 0x89, 'J', 'L', '4', 'J', 0x0d, 0x0a, 0x1a};
  static final int MAJOR = 1;
  static final int MINOR = 0;
  static final int FILE_HEADER = 32;
  static final int RECORD_HEADER = 32;
  static final int TRAILER = 4;
  /** Blob payloads start at container offsets that are multiples of this (a cache line; SIMD-friendly). */
  static final int ALIGNMENT = 64;
  static final int MAX_ALIGNMENT = 1 << 16;

  static final int KIND_BLOB = 1;
  static final int KIND_OBJECTS = 2;
  static final int KIND_END = 3;

  /** Blob subtype: NDArray element data (any dtype; the OBJECTS record says which). */
  static final int BLOB_NDARRAY = 16;

  /** Record flag: NDArray data was mapped read-write, so its payload checksum is no longer kept. */
  static final int FLAG_MUTABLE = 1;

  /** Object bytes per OBJECTS record the writer emits. */
  static final int OBJECT_CHUNK = 1 << 20;
  /** The largest OBJECTS record a reader accepts (it is read into memory before it is checked). */
  static final int MAX_OBJECT_CHUNK = 16 << 20;
  /** Primitive arrays of fewer bytes go inline in the object stream; larger ones become blobs. */
  static final int INLINE_ARRAY_MAX = 4096;
  /** The reader's limit for inline arrays (leaves room for other writers' choices). */
  static final int MAX_INLINE_ARRAY = 1 << 16;
  static final int END_PAYLOAD = 16;

  private Format() {}
}
