package io.joblib4j.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Compress;
import io.joblib4j.Joblib;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompressorsTest {
  @TempDir Path dir;

  /** A codec that writes a 2-byte magic and then the bytes unchanged. */
  public static class Tagged implements Compressor {
    private final String name;
    private final String ext;
    private final byte[] magic;

    public Tagged() {
      this("tagged", ".tg", new byte[] {'T', 'G'});
    }

    Tagged(String name, String ext, byte[] magic) {
      this.name = name;
      this.ext = ext;
      this.magic = magic;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String extension() {
      return ext;
    }

    @Override
    public byte[] magic() {
      return magic.clone();
    }

    @Override
    public OutputStream compress(OutputStream out, int level) throws java.io.IOException {
      out.write(magic);
      return new FilterOutputStream(out);
    }

    @Override
    public InputStream decompress(InputStream in) throws java.io.IOException {
      in.readNBytes(magic.length);
      return new FilterInputStream(in) {};
    }
  }

  @AfterEach
  void cleanUp() {
    Compressors.unregister("tagged");
    Compressors.unregister("other");
  }

  @Test
  void aRegisteredCodecIsUsedByNameAndByExtensionAndDetectedOnLoad() {
    Compressors.register(new Tagged());
    Path byName = dir.resolve("a.jl4j");
    Joblib.dump(List.of(1), byName, Compress.of("tagged", 5));
    Path byExtension = dir.resolve("a.tg");
    Joblib.dump(List.of(2), byExtension);
    assertThat((List<Integer>) Joblib.load(byName)).containsExactly(1);
    assertThat((List<Integer>) Joblib.load(byExtension)).containsExactly(2);
  }

  @Test
  void duplicatesAndBadDefinitionsAreRejectedWithClearMessages() {
    Compressors.register(new Tagged());
    assertThatThrownBy(() -> Compressors.register(new Tagged())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already registered").hasMessageContaining("register(compressor, true)");
    Compressors.register(new Tagged(), true); // joblib's force=True
    assertThatThrownBy(() -> Compressors.register(new Tagged("Bad Name", ".x", new byte[] {1, 2})))
        .hasMessageContaining("invalid name");
    assertThatThrownBy(() -> Compressors.register(new Tagged("other", "gz", new byte[] {1, 2})))
        .hasMessageContaining("invalid extension");
    assertThatThrownBy(() -> Compressors.register(new Tagged("other", ".oth", new byte[0])))
        .hasMessageContaining("magic bytes");
    assertThatThrownBy(() -> Compressors.register(new Tagged("other", ".oth", new byte[] {0x1f, (byte) 0x8b, 8})))
        .hasMessageContaining("overlap").hasMessageContaining("gzip");
    assertThatThrownBy(() -> Compressors.register(new Tagged("other", ".gz", new byte[] {9, 9})))
        .hasMessageContaining("already used by \"gzip\"");
    assertThatThrownBy(() -> Compressors.register(new Tagged("other", ".oth", new byte[] {(byte) 0x89, 'J', 'L'})))
        .hasMessageContaining("container magic");
    assertThatThrownBy(() -> Compressors.register(null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCodecListedInAServicesFileIsFoundThroughTheContextClassLoader() throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(Compressor.class.getName()), Tagged.class.getName() + "\n");
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, previous)) {
      Thread.currentThread().setContextClassLoader(loader);
      assertThat(Compressors.names()).contains("tagged");
      assertThat(Compressors.get("tagged")).isInstanceOf(Tagged.class);
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
    assertThat(Compressors.find("tagged")).isEmpty();
  }
}
