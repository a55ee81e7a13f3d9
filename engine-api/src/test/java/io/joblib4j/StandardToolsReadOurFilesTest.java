package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gzip and zlib output must be plain gzip and zlib streams (joblib test_load_externally_decompressed_files). */
class StandardToolsReadOurFilesTest {
  @TempDir Path dir;

  private static byte[] uncompressed(Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Joblib.dump(value, out);
    return out.toByteArray();
  }

  @Test
  void gzipDashDDecompressesAGzFileToTheUncompressedContainer() throws Exception {
    Path file = dir.resolve("v.jl4j.gz");
    List<Object> value = List.of("abc", new double[] {1, 2, 3});
    Joblib.dump(value, file);
    Process p;
    try {
      p = new ProcessBuilder("gzip", "-d", "-k", file.toString()).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      assumeTrue(false, "no gzip binary");
      return;
    }
    assertThat(p.waitFor()).isZero();
    byte[] plain = Files.readAllBytes(dir.resolve("v.jl4j"));
    assertThat(plain).isEqualTo(uncompressed(value));
    List<Object> back = Joblib.load(dir.resolve("v.jl4j"));
    assertThat(back.get(0)).isEqualTo("abc");
  }

  @Test
  void javaUtilZipReadsGzipAndZlibOutput() throws Exception {
    Object value = List.of("x", 1L);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    Joblib.dump(value, gz, Compress.of("gzip", 6));
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.toByteArray()))) {
      assertThat(in.readAllBytes()).isEqualTo(uncompressed(value));
    }
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    Joblib.dump(value, z, Compress.of("zlib", 1));
    try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(z.toByteArray()))) {
      assertThat(in.readAllBytes()).isEqualTo(uncompressed(value));
    }
  }

  @Test
  void pythonsZlibModuleDecompressesAZFile() throws Exception {
    Path file = dir.resolve("v.z");
    Joblib.dump(List.of("py"), file);
    Process p;
    try {
      p = new ProcessBuilder("python3", "-c",
          "import sys,zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1],'rb').read()))", file.toString())
          .start();
    } catch (java.io.IOException e) {
      assumeTrue(false, "no python3");
      return;
    }
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertThat(out).isEqualTo(uncompressed(List.of("py")));
  }
}
