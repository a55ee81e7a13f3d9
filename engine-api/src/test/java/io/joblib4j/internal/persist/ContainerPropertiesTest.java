package io.joblib4j.internal.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.CorruptFileException;
import io.joblib4j.Joblib;
import io.joblib4j.JoblibException;
import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** jqwik: dump then load is the identity, and any single-byte flip or truncation is detected. */
class ContainerPropertiesTest {
  @Provide
  Arbitrary<NDArray> arrays() {
    Arbitrary<DType> dtypes = Arbitraries.of(DType.values());
    Arbitrary<long[]> shapes = Arbitraries.longs().between(0, 6).array(long[].class).ofMaxSize(3);
    return Combinators.combine(dtypes, shapes, Arbitraries.longs()).as((d, s, seed) -> {
      NDArray a = NDArray.zeros(d, s);
      java.util.Random r = new java.util.Random(seed);
      long[] idx = new long[s.length];
      for (long n = 0; n < a.size(); n++) {
        a.setLong(r.nextInt(256) - (d == DType.UINT8 || d == DType.BOOL ? 0 : 128), idx);
        io.joblib4j.internal.array.Shapes.increment(idx, s);
      }
      return a;
    });
  }

  @Property(tries = 200)
  void dumpThenLoadGivesBackEqualArraysAndValues(@ForAll("arrays") NDArray a, @ForAll List<String> strings,
      @ForAll double[] doubles, @ForAll Map<Integer, Long> map) {
    Object value = List.of(a, strings, doubles, map);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(value, out);
    List<Object> back = Joblib.load(new ByteArrayInputStream(out.toByteArray()));
    assertThat(back.get(0)).isEqualTo(a);
    assertThat(back.get(1)).isEqualTo(strings);
    assertThat(Arrays.equals((double[]) back.get(2), doubles)).isTrue();
    assertThat(back.get(3)).isEqualTo(map);
  }

  private static final byte[] SAMPLE = sample();

  private static byte[] sample() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(List.of("a string", NDArray.of(1.0, 2.0, 3.0), new long[1000], Map.of("k", 1)), out);
    return out.toByteArray();
  }

  @Property(tries = 1000)
  void anySingleByteFlipIsDetected(@ForAll @IntRange(min = 0, max = 100_000) int position,
      @ForAll @IntRange(min = 1, max = 255) int xor) {
    byte[] b = SAMPLE.clone();
    int at = position % b.length;
    b[at] ^= (byte) xor;
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(b))).isInstanceOf(JoblibException.class);
  }

  @Property(tries = 500)
  void anyTruncationIsDetected(@ForAll @IntRange(min = 0, max = 100_000) int cut) {
    int len = cut % SAMPLE.length;
    byte[] b = Arrays.copyOf(SAMPLE, len);
    assertThatThrownBy(() -> Joblib.load(new ByteArrayInputStream(b))).isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("stream");
  }

  @Property(tries = 100)
  void aFlippedCompressedFileNeverLoadsAWrongValue(@ForAll @IntRange(min = 0, max = 100_000) int position,
      @ForAll @IntRange(min = 1, max = 255) int xor, @ForAll("codecs") String codec) throws Exception {
    Path file = Files.createTempFile("flip", ".jl4j");
    try {
      Object value = List.of("value", new int[] {1, 2, 3});
      Joblib.dump(value, file, Compress.of(codec, 3));
      byte[] b = Files.readAllBytes(file);
      b[position % b.length] ^= (byte) xor;
      Files.write(file, b);
      try {
        List<Object> back = Joblib.load(file);
        // a flip in codec padding may be harmless, but then the value must be exactly right
        assertThat(back.get(0)).isEqualTo("value");
        assertThat((int[]) back.get(1)).containsExactly(1, 2, 3);
      } catch (CorruptFileException e) {
        assertThat(e.getMessage()).contains(file.toString());
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Provide
  Arbitrary<String> codecs() {
    return Arbitraries.of("zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zstd");
  }
}
