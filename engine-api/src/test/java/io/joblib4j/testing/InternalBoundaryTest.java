package io.joblib4j.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The boundary check itself: it must see what other modules' runs of it are meant to catch. */
class InternalBoundaryTest {

  @Test
  void findsEveryUseOfAnInternalTypeInACompiledModule() throws URISyntaxException {
    // engine-api's own classes use its internals freely: the check must see that
    Path classes = Path.of(Parallel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(InternalBoundary.violations(classes))
        .anyMatch(v -> v.startsWith("io.joblib4j.Parallel uses [") && v.contains("io.joblib4j.internal.parallel."));
    assertThatThrownBy(() -> InternalBoundary.assertNoInternalReferences(Parallel.class))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("use the public API or io.joblib4j.spi instead");
  }

  @Test
  void aClassUsingOnlyThePublicApiPasses() throws Exception {
    byte[] self;
    try (var in = InternalBoundaryTest.class.getResourceAsStream("InternalBoundaryTest.class")) {
      self = in.readAllBytes();
    }
    String internal = String.join("/", "io", "joblib4j", "internal"); // not a constant of this class
    assertThat(InternalBoundary.utf8Constants(self)).contains("io/joblib4j/Parallel")
        .noneMatch(s -> s.contains(internal));
  }
}
