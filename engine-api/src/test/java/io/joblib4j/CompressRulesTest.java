package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** joblib-features §3.1: which codec and level each compress value gives, with and without extensions. */
class CompressRulesTest {
  @TempDir Path dir;

  private static String describe(Compress c, String fileName) {
    Optional<Compress.Choice> r = c.resolve(fileName);
    return r.map(x -> x.compressor().name() + ":" + x.level()).orElse("none");
  }

  @ParameterizedTest
  @CsvSource({
    "x.jl4j, none", "x.z, zlib:3", "x.gz, gzip:3", "x.bz2, bz2:3", "x.lzma, lzma:3", "x.xz, xz:3",
    "x.lz4, lz4:1", "x.zst, zstd:3", "x.pkl, none", "X.GZ, gzip:3"
  })
  void noneCompressesOnlyWhenTheExtensionNamesACodec(String file, String expected) {
    assertThat(describe(Compress.none(), file)).isEqualTo(expected);
    assertThat(describe(Compress.of(false), file)).isEqualTo(expected);
    assertThat(describe(Compress.of(0), file)).isEqualTo(expected);
  }

  @Test
  void trueIsZlibAtLevelThreeUnlessTheExtensionOverridesTheMethod() {
    assertThat(describe(Compress.of(true), "x.jl4j")).isEqualTo("zlib:3");
    assertThat(describe(Compress.of(true), "x.gz")).isEqualTo("gzip:3");
  }

  @Test
  void anIntLevelIsZlibButAKnownExtensionOverridesTheMethodKeepingTheLevel() {
    assertThat(describe(Compress.of(7), "x.jl4j")).isEqualTo("zlib:7");
    assertThat(describe(Compress.of(3), "x.gz")).isEqualTo("gzip:3");
    assertThat(describe(Compress.of(9), "x.xz")).isEqualTo("xz:9");
    assertThat(describe(Compress.of(5), null)).isEqualTo("zlib:5");
  }

  @Test
  void aNameIgnoresTheExtensionAndUsesTheDefaultLevel() {
    assertThat(describe(Compress.of("gzip"), "x.xz")).isEqualTo("gzip:3");
    assertThat(describe(Compress.of("lz4"), "x.jl4j")).isEqualTo("lz4:1");
  }

  @Test
  void aNameAndLevelIsExactAndLevelZeroWritesUncompressed() {
    assertThat(describe(Compress.of("zstd", 9), "x.gz")).isEqualTo("zstd:9");
    assertThat(describe(Compress.of("gzip", 0), "x.gz")).isEqualTo("none");
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 10, 100})
  void badLevelsAreRejectedWithJoblibsMessage(int level) {
    assertThatThrownBy(() -> Compress.of(level)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Non valid compress level given").hasMessageContaining("0..9");
    assertThatThrownBy(() -> Compress.of("zlib", level)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Non valid compress level given");
  }

  @Test
  void unknownMethodsAreRejectedListingTheKnownOnes() {
    assertThatThrownBy(() -> Compress.of("snappy")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Non valid compression method given").hasMessageContaining("snappy")
        .hasMessageContaining("zstd");
    assertThatThrownBy(() -> Compress.parse("zlib:x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Compress.parse(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void configStringsParseToTheSameValues() {
    assertThat(Compress.parse("zstd:3")).isEqualTo(Compress.of("zstd", 3));
    assertThat(Compress.parse("gzip")).isEqualTo(Compress.of("gzip"));
    assertThat(Compress.parse("true")).isEqualTo(Compress.of(true));
    assertThat(Compress.parse("false")).isEqualTo(Compress.none());
    assertThat(Compress.parse("4")).isEqualTo(Compress.of(4));
    assertThat(Compress.parse("none").toString()).isEqualTo("Compress.none()");
  }

  @ParameterizedTest
  @CsvSource({"x.z, 78", "x.gz, 1f8b", "x.bz2, 425a", "x.lzma, 5d00", "x.xz, fd377a585a00", "x.lz4, 04224d18",
      "x.zst, 28b52ffd", "x.jl4j, 894a4c344a0d0a1a"})
  void theExtensionChoosesTheCodecOnDumpAndMagicBytesIdentifyItOnLoad(String name, String magicHex) throws Exception {
    Path file = dir.resolve(name);
    Joblib.dump(List.of("payload", 1), file);
    byte[] head = Files.readAllBytes(file);
    assertThat(java.util.HexFormat.of().formatHex(head, 0, magicHex.length() / 2)).isEqualTo(magicHex);
    // renamed so the extension lies: load must still find the codec from the bytes
    Path renamed = Files.move(file, dir.resolve("renamed.bin"));
    assertThat((List<Object>) Joblib.load(renamed)).containsExactly("payload", 1);
  }
}
