package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.array.NDArray;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** joblib test_joblib_compression_formats: every codec at levels 1, 3, 6 and 9. */
class EveryCodecAndLevelTest {
  static Stream<Arguments> codecsAndLevels() {
    return Stream.of("zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zstd")
        .flatMap(c -> Stream.of(1, 3, 6, 9).map(l -> Arguments.of(c, l)));
  }

  @ParameterizedTest(name = "{0} level {1}")
  @MethodSource("codecsAndLevels")
  void standardTypesAndArraysRoundTrip(String codec, int level) {
    double[] wave = new double[10_000];
    for (int i = 0; i < wave.length; i++) {
      wave[i] = Math.sin(i / 100.0);
    }
    Object value = Map.of("name", "wave", "data", wave, "nd", NDArray.of(wave).reshape(100, 100),
        "meta", List.of(1, 2L, 3.5, true));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(value, out, Compress.of(codec, level));
    byte[] magic = io.joblib4j.spi.Compressors.get(codec).magic();
    assertThat(java.util.Arrays.copyOf(out.toByteArray(), magic.length)).isEqualTo(magic);
    Map<String, Object> back = Joblib.load(new ByteArrayInputStream(out.toByteArray()));
    assertThat((double[]) back.get("data")).containsExactly(wave);
    assertThat(back.get("nd")).isEqualTo(NDArray.of(wave).reshape(100, 100));
    assertThat(back.get("meta")).isEqualTo(List.of(1, 2L, 3.5, true));
  }
}
