package io.joblib4j.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.testing.InternalBoundary;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SPI is a floor: an implementer reads {@code io.joblib4j.spi} (and its {@code support} and
 * {@code worker} packages) alone, because none of it names a type of {@code io.joblib4j.internal};
 * joblib4j's own backends, stores and codecs are registered as a third party's would be; and the
 * internals call each other, not the public facade built on them. Read from the compiled classes'
 * constant pools, where every name a class refers to is kept.
 */
class SpiFloorTest {

  @Test
  void noClassOfTheSpiNamesAnInternalType() {
    List<String> spiUsingInternals = InternalBoundary.violations(engineApiClasses()).stream()
        .filter(v -> v.startsWith("io.joblib4j.spi.")).toList();
    assertThat(spiUsingInternals).as("the SPI must not use io.joblib4j.internal: move what it needs into"
        + " io.joblib4j.spi.support (helpers implementers call) or into the SPI itself").isEmpty();
  }

  @Test
  void internalCodeAndTheArraysCallTheInternalsNotTheJoblibFacade() throws IOException {
    List<String> callers = new ArrayList<>();
    Path classes = engineApiClasses();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
        String name = classes.relativize(f).toString().replace('\\', '/');
        if (name.startsWith("io/joblib4j/Joblib")) {
          continue;
        }
        if (InternalBoundary.utf8Constants(Files.readAllBytes(f)).contains("io/joblib4j/Joblib")) {
          callers.add(name);
        }
      }
    }
    assertThat(callers).as("classes that call Joblib.dump/load/hash instead of what Joblib delegates to").isEmpty();
  }

  @Test
  void theBuiltInProvidersAreListedInMetaInfServicesAsAThirdPartysWouldBe() throws IOException {
    assertThat(services(BackendProvider.class)).contains(
        "io.joblib4j.internal.parallel.SequentialBackend$Provider",
        "io.joblib4j.internal.threads.ThreadsBackend$Provider",
        "io.joblib4j.internal.processes.ProcessesBackend$Provider");
    assertThat(services(StoreProvider.class)).contains("io.joblib4j.internal.memory.LocalStoreProvider");
    assertThat(services(Compressor.class)).hasSize(7).allMatch(c -> c.startsWith("io.joblib4j.internal.persist."));
    assertThat(Compressors.names()).startsWith("zlib", "gzip", "bz2", "lzma", "xz", "lz4", "zstd");
    assertThat(Stores.schemes()).contains("file");
  }

  private static List<String> services(Class<?> spi) throws IOException {
    Path file = engineApiClasses().resolve("META-INF/services/" + spi.getName());
    assertThat(file).as("engine-api's services file for " + spi.getSimpleName()).isRegularFile();
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(l -> l.replaceAll("#.*", "").trim())
          .filter(l -> !l.isEmpty()).toList();
    }
  }

  private static Path engineApiClasses() {
    try {
      return Path.of(Backend.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
