package io.joblib4j.internal.persist;

/** Constants of the container format; FORMAT.md is the prose version of this file. */
final class Format {
  /** {@code \x89 J L 4 J \r \n \x1a}: not text, not a pickle, not any codec's magic; CR-LF catches mangling. */
  static final byte[] MAGIC = {(byte) 0x89, 'J', 'L', '4', 'J', 0x0d, 0x0a, 0x1a};
  /**
   * The version writers write. 2 added the block sums of NDArray data (a SUMS record after each
   * such BLOB), which lazily verified maps need; it is a major version because a reader that
   * ignored them would map version-2 data it never verified.
   */
  static final int MAJOR = 2;
  /** The oldest version readers read: version-1 files have no block sums and are checked whole. */
  static final int OLDEST_MAJOR = 1;
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
  /** Version 2: the per-block CRC32Cs of the NDArray BLOB just before it. */
  static final int KIND_SUMS = 4;

  /** Writers sum NDArray data in blocks of 1 MiB (HDFS sums 512-byte chunks; a block is one check). */
  static final int BLOCK_SHIFT = 20;
  /** Readers accept blocks from 4 KiB (a page) to 1 GiB (a mapped segment, which a block must not straddle). */
  static final int MIN_BLOCK_SHIFT = 12;
  static final int MAX_BLOCK_SHIFT = 30;
  /** A SUMS payload: u32 block size, u32 block count, then a u32 CRC32C per block. */
  static final int SUMS_HEADER = 8;

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
