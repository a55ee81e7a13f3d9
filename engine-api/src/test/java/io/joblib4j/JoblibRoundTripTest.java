package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.array.DType;
import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JoblibRoundTripTest {
  @TempDir Path dir;

  enum Color { RED, GREEN }

  record Point(double x, double y, String label) {}

  record Nested(Point p, List<Integer> ids, Map<String, double[]> arrays) {}

  /** Every kind of value the data-only codec knows. */
  static Map<String, Object> standardValues() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("null", null);
    m.put("bool", true);
    m.put("byte", (byte) -3);
    m.put("short", (short) 1234);
    m.put("char", 'é');
    m.put("int", 42);
    m.put("long", Long.MIN_VALUE);
    m.put("float", 1.5f);
    m.put("double", -0.0);
    m.put("nan", Double.NaN);
    m.put("string", "héllo wörld \uD83D\uDE00 and a lone \uD800 surrogate");
    m.put("empty", "");
    m.put("bigint", new BigInteger("-123456789012345678901234567890"));
    m.put("bigdec", new BigDecimal("3.14159265358979323846"));
    m.put("uuid", UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
    m.put("instant", Instant.ofEpochSecond(1_700_000_000L, 123));
    m.put("date", LocalDate.of(2024, 2, 29));
    m.put("zoned", ZonedDateTime.parse("2024-03-10T10:15:30+01:00[Europe/Paris]"));
    m.put("duration", Duration.ofMillis(1234));
    m.put("optional", Optional.of("x"));
    m.put("emptyOptional", Optional.empty());
    m.put("enum", Color.GREEN);
    m.put("record", new Point(1, 2, "p"));
    m.put("list", new ArrayList<>(List.of(1, 2, 3)));
    m.put("linked", new LinkedList<>(List.of("a", "b")));
    m.put("immutableList", List.of(1L, 2L));
    m.put("set", new HashSet<>(Set.of(1, 2, 3)));
    m.put("treeSet", new TreeSet<>(Set.of("b", "a")));
    m.put("map", new HashMap<>(Map.of("a", 1, "b", 2)));
    m.put("treeMap", new TreeMap<>(Map.of(3, "c", 1, "a")));
    m.put("immutableMap", Map.of("k", List.of()));
    m.put("doubles", new double[] {1, 2, Double.NaN, -0.0});
    m.put("bigDoubles", new double[100_000]);
    m.put("ints", new int[] {1, -1, Integer.MAX_VALUE});
    m.put("longs", new long[5000]);
    m.put("bytes", new byte[] {1, 2, 3});
    m.put("shorts", new short[] {-1});
    m.put("chars", "chars".toCharArray());
    m.put("booleans", new boolean[] {true, false, true});
    m.put("floats", new float[] {1.25f});
    m.put("strings", new String[] {"a", null, "c"});
    m.put("matrix", new double[][] {{1, 2}, {3, 4}});
    m.put("ndarray", NDArray.of(new double[] {1, 2, 3, 4, 5, 6}, 2, 3));
    m.put("ndarrayInt8", NDArray.zeros(DType.INT8, 7));
    m.put("nested", new Nested(new Point(0, 0, null), List.of(7), Map.of("w", new double[] {9})));
    return m;
  }

  static Stream<Arguments> compressions() {
    return Stream.of(Arguments.of(Compress.none()), Arguments.of(Compress.of(true)), Arguments.of(Compress.of(3)),
        Arguments.of(Compress.of("gzip")), Arguments.of(Compress.of("bz2", 9)), Arguments.of(Compress.of("lzma", 1)),
        Arguments.of(Compress.of("xz", 6)), Arguments.of(Compress.of("lz4")), Arguments.of(Compress.of("lz4", 9)),
        Arguments.of(Compress.of("zstd", 3)), Arguments.of(Compress.of("zlib", 0)));
  }

  @ParameterizedTest
  @MethodSource("compressions")
  void standardValuesRoundTripThroughAFile(Compress compress) {
    Path file = dir.resolve("values.jl4j");
    Map<String, Object> values = standardValues();
    Joblib.dump(values, file, compress);
    Map<String, Object> back = Joblib.load(file);
    assertSameValues(values, back);
  }

  @ParameterizedTest
  @MethodSource("compressions")
  void standardValuesRoundTripThroughAStream(Compress compress) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<String, Object> values = standardValues();
    Joblib.dump(values, out, compress);
    Map<String, Object> back = Joblib.load(new ByteArrayInputStream(out.toByteArray()));
    assertSameValues(values, back);
  }

  @Test
  void severalDumpsFollowEachOtherInOneStream() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump("first", out);
    Joblib.dump(List.of(2), out);
    ByteArrayInputStream in = new ByteArrayInputStream(out.toByteArray());
    assertThat((String) Joblib.load(in)).isEqualTo("first");
    assertThat((List<Integer>) Joblib.load(in)).containsExactly(2);
  }

  @Test
  void theSameArrayTwiceIsStoredOnceAndStaysOneArray() {
    double[] shared = new double[10_000];
    Path file = dir.resolve("shared.jl4j");
    Joblib.dump(List.of(shared, shared), file);
    List<double[]> back = Joblib.load(file);
    assertThat(back.get(0)).isSameAs(back.get(1));
    assertThat(file.toFile().length()).isLessThan(2 * 80_000);
  }

  @Test
  void unmodifiableCollectionsComeBackUnmodifiable() {
    Path file = dir.resolve("u.jl4j");
    Joblib.dump(List.of(1, 2), file);
    List<Integer> back = Joblib.load(file);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> back.add(3))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void largeArraysChecksummedOnAHelperThreadRoundTripAndCorruptionIsStillCaught() throws Exception {
    double[] big = new double[(10 << 20) / 8 + 3];
    for (int i = 0; i < big.length; i++) {
      big[i] = i;
    }
    Path file = dir.resolve("big.jl4j");
    Joblib.dump(big, file);
    assertThat((double[]) Joblib.load(file)).isEqualTo(big);
    byte[] b = java.nio.file.Files.readAllBytes(file);
    b[b.length / 2] ^= 1;
    java.nio.file.Files.write(file, b);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Joblib.load(file))
        .isInstanceOf(CorruptFileException.class).hasMessageContaining("checksum mismatch");
  }

  static void assertSameValues(Map<String, Object> expected, Map<String, Object> actual) {
    assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
    for (String k : expected.keySet()) {
      Object e = expected.get(k);
      Object a = actual.get(k);
      assertThat(Arrays.deepEquals(new Object[] {e}, new Object[] {a}) || deepRecordEquals(e, a))
          .as("value %s: expected %s got %s", k, e, a).isTrue();
      if (e != null) {
        assertThat(a.getClass()).as("class of %s", k).isEqualTo(e.getClass().getName().startsWith("java.util.Immutable")
            ? a.getClass() : e.getClass());
      }
    }
  }

  private static boolean deepRecordEquals(Object e, Object a) {
    if (e instanceof Nested && a instanceof Nested) {
      Nested x = (Nested) e;
      Nested y = (Nested) a;
      return x.p().equals(y.p()) && x.ids().equals(y.ids())
          && Arrays.equals(x.arrays().get("w"), y.arrays().get("w"));
    }
    return false;
  }
}
