package io.joblib4j.internal.persist;

/**
 * The CRC32C of a concatenation from the CRC32Cs of its parts, without their bytes: appending
 * {@code n} bytes to a message acts on its CRC register as a linear map over GF(2) (multiplication
 * by x^(8n) modulo the polynomial), kept here as a 32x32 bit matrix, one int per column. A mapped
 * load uses it to check a record's block sums against its payload checksum in microseconds, so that
 * even a damaged trailer of data it has not read yet is found.
 */
final class CrcCombine {
  /** CRC32C's polynomial, bit-reversed (as {@link java.util.zip.CRC32C} shifts). */
  private static final int POLY = 0x82F63B78;

  private final int[] appendBlock;

  /** A combiner for parts of {@code blockBytes} bytes each (the last part's length is given apart). */
  CrcCombine(long blockBytes) {
    this.appendBlock = zeros(blockBytes);
  }

  /** The CRC32C of {@code a || b} where {@code b} is a whole block with CRC32C {@code crcB}. */
  int append(int crcA, int crcB) {
    return apply(appendBlock, crcA) ^ crcB;
  }

  /** The CRC32C of {@code a || b} where {@code b} has {@code lengthB} bytes and CRC32C {@code crcB}. */
  static int append(int crcA, int crcB, long lengthB) {
    return apply(zeros(lengthB), crcA) ^ crcB;
  }

  /** The map that appending {@code n} zero bytes makes of a CRC register. */
  private static int[] zeros(long n) {
    int[] bit = new int[32];
    bit[0] = POLY; // the register shifted right by one bit: the low bit folds in the polynomial
    for (int i = 1; i < 32; i++) {
      bit[i] = 1 << (i - 1);
    }
    int[] step = compose(bit, bit); // 2 bits
    step = compose(step, step); // 4 bits
    step = compose(step, step); // 8 bits: one zero byte
    int[] result = new int[32];
    for (int i = 0; i < 32; i++) {
      result[i] = 1 << i;
    }
    for (; n > 0; n >>>= 1) {
      if ((n & 1) != 0) {
        result = compose(step, result);
      }
      step = compose(step, step);
    }
    return result;
  }

  /** The map {@code a} after {@code b}. */
  private static int[] compose(int[] a, int[] b) {
    int[] r = new int[32];
    for (int i = 0; i < 32; i++) {
      r[i] = apply(a, b[i]);
    }
    return r;
  }

  private static int apply(int[] m, int v) {
    int sum = 0;
    for (int i = 0; v != 0; i++, v >>>= 1) {
      if ((v & 1) != 0) {
        sum ^= m[i];
      }
    }
    return sum;
  }
}
