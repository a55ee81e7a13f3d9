package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The digest that decides whether a kept array is passed again unchanged: any change it must see,
 * wherever it is (each lane, a chunk's edges, the bytes after the last whole stripe), and equal
 * content in another array gives the same digest.
 */
class ArrayDigestsTest {
  private static final int CHUNK_DOUBLES = (16 << 20) / 8;

  private static String digest(Object array) {
    return Arrays.toString(ArrayDigests.of(array)); // unambiguous: each half delimited
  }

  @Test
  void equalContentInAnotherArrayHasTheSameDigest() {
    double[] a = new double[2 * CHUNK_DOUBLES + 5];
    for (int i = 0; i < a.length; i++) {
      a[i] = i * 0.5;
    }
    assertThat(digest(a.clone())).isEqualTo(digest(a));
    assertThat(digest(new byte[0])).isEqualTo(digest(new byte[0]));
  }

  @Test
  void oneElementChangedAnywhereChangesTheDigest() {
    double[] a = new double[2 * CHUNK_DOUBLES + 5]; // three chunks, the last with a partial stripe
    String unchanged = digest(a);
    int[] positions = {0, 1, 2, 3, 4, 7, CHUNK_DOUBLES - 1, CHUNK_DOUBLES, CHUNK_DOUBLES + 3,
        2 * CHUNK_DOUBLES - 1, 2 * CHUNK_DOUBLES, 2 * CHUNK_DOUBLES + 3, a.length - 1};
    Set<String> seen = new HashSet<>(Set.of(unchanged));
    for (int i : positions) {
      a[i] = 1.0;
      assertThat(seen.add(digest(a))).as("a changed element %d (and those before it) is seen", i).isTrue();
      a[i] = 0.0;
      assertThat(digest(a)).as("back to the content it had").isEqualTo(unchanged);
      a[i] = -0.0; // the same value to ==, not the same bits: the array's memory is what is shared
      assertThat(digest(a)).as("-0.0 at %d", i).isNotEqualTo(unchanged);
      a[i] = 0.0;
    }
  }

  @Test
  void everyArrayOfTheSameValueChangedToAnotherIsSeen() {
    double[] a = new double[CHUNK_DOUBLES + 7];
    String zeros = digest(a);
    Arrays.fill(a, 1.0); // joblib's miss in issue 21: a[:] = 1.0 between two calls
    assertThat(digest(a)).isNotEqualTo(zeros);
  }

  @Test
  void wordsTradedBetweenLanesOrStripesAreSeen() {
    long[] a = {1, 2, 3, 4, 5, 6, 7, 8};
    long[] lanesTraded = {2, 1, 3, 4, 5, 6, 7, 8};
    long[] stripesTraded = {5, 6, 7, 8, 1, 2, 3, 4};
    assertThat(Set.of(digest(a), digest(lanesTraded), digest(stripesTraded))).hasSize(3);
  }

  @Test
  void theLengthAndTheTailBytesCount() {
    assertThat(digest(new byte[31])).isNotEqualTo(digest(new byte[32])).isNotEqualTo(digest(new byte[33]));
    assertThat(digest(new long[4])).isNotEqualTo(digest(new long[8]));
    byte[] tail = new byte[70];
    String before = digest(tail);
    tail[69] = 1; // after the last whole 32-byte stripe
    assertThat(digest(tail)).isNotEqualTo(before);
    tail[69] = 0;
    tail[31] = 1; // the last byte of the first stripe's last word
    assertThat(digest(tail)).isNotEqualTo(before);
  }

  @Test
  void everyKindDigestsAsItsLittleEndianBytes() {
    // long[], double[] and byte[] are read in place, the other kinds through a 64 KiB copy: all must
    // read the same words, across the copy's and the 16 MiB chunk's borders and in the tail
    int[] byteLengths = {0, 8, 40, (64 << 10) - 8, 64 << 10, (64 << 10) + 24, (16 << 20) + 32 + 8};
    java.util.SplittableRandom r = new java.util.SplittableRandom(5);
    for (int length : byteLengths) {
      byte[] bytes = new byte[length];
      r.nextBytes(bytes);
      java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      double[] d = new double[length / 8];
      le.asDoubleBuffer().get(d);
      long[] l = new long[length / 8];
      le.asLongBuffer().get(l);
      int[] i = new int[length / 4];
      le.asIntBuffer().get(i);
      float[] f = new float[length / 4];
      le.asFloatBuffer().get(f);
      short[] s = new short[length / 2];
      le.asShortBuffer().get(s);
      char[] c = new char[length / 2];
      le.asCharBuffer().get(c);
      String expected = digest(bytes);
      for (Object kind : new Object[] {d, l, i, f, s, c}) {
        assertThat(digest(kind)).as("%s of %d bytes", kind.getClass().getSimpleName(), length).isEqualTo(expected);
      }
      boolean[] z = new boolean[length];
      byte[] zBytes = new byte[length];
      for (int k = 0; k < length; k++) {
        z[k] = (bytes[k] & 1) == 1;
        zBytes[k] = (byte) (bytes[k] & 1);
      }
      assertThat(digest(z)).as("boolean[%d]", length).isEqualTo(digest(zBytes));
    }
  }

  @Test
  void theSameBytesAsAnotherKindAreTheSameMemory() {
    // The element kind is part of the kept file's identity elsewhere (the array itself is the key);
    // the digest is of memory, so a long[] and a double[] with the same bits agree.
    assertThat(digest(new long[] {Double.doubleToRawLongBits(2.5)})).isEqualTo(digest(new double[] {2.5}));
  }
}
