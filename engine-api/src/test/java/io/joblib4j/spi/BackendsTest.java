package io.joblib4j.spi;

import static io.joblib4j.Delayed.delayed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.Parallel;
import io.joblib4j.testing.SerializingBackend;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackendsTest {

  @Test
  void builtInsAndServiceLoaderProvidersAreAvailable() {
    assertThat(Backends.available()).contains("sequential", "threads", "serializing");
  }

  @Test
  void aProviderRegisteredByHandCanBeUsedByNameAndUnregistered() {
    Backends.register("by-hand", new BackendProvider() {
      @Override
      public String name() {
        return "by-hand";
      }

      @Override
      public Backend create(Map<String, Object> options) {
        return new SerializingBackend();
      }
    });
    try {
      assertThat(Backends.available()).contains("by-hand");
      assertThat(Parallel.builder().backend("by-hand").nJobs(2).build().run(List.of(delayed(() -> 3))))
          .containsExactly(3);
    } finally {
      assertThat(Backends.unregister("by-hand")).isTrue();
    }
    assertThat(Backends.available()).doesNotContain("by-hand");
    assertThat(Backends.unregister("by-hand")).isFalse();
  }

  @Test
  void aTakenNameCannotBeRegisteredAgain() {
    assertThatThrownBy(() -> Backends.register("threads", new SerializingBackend.Provider()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already provided by")
        .hasMessageContaining("unregister");
  }

  @Test
  void aDiscoveredBackendCanBeReplacedAfterUnregistering() {
    assertThat(Backends.unregister("serializing")).isTrue();
    try {
      assertThat(Backends.available()).doesNotContain("serializing");
    } finally {
      Backends.register(new SerializingBackend.Provider());
    }
    assertThat(Backends.available()).contains("serializing");
  }

  @Test
  void invalidNamesAreRejected() {
    for (String bad : new String[] {"", "Threads", "my backend", "1st", "a/b", "-x", "a".repeat(65)}) {
      assertThatThrownBy(() -> Backends.register(bad, new SerializingBackend.Provider()))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid backend name");
    }
  }

  @Test
  void namesOfLowercaseLettersDigitsAndDashesUpTo64CharactersAreValid() {
    var valid = ProviderRegistry.lowercaseKey(64, "-");
    for (String good : new String[] {"a", "threads", "my-cluster-2", "a".repeat(64)}) {
      assertThat(valid.test(good)).as(good).isTrue();
    }
    assertThat(ProviderRegistry.lowercaseKey(32, "+.-").test("s3a+ssl.v-2")).isTrue();
    assertThat(ProviderRegistry.lowercaseKey(32, "+.-").test("s3a_x")).isFalse();
  }

  @Test
  void providersAreFoundThroughTheThreadContextClassLoader(@TempDir Path dir) throws Exception {
    ClassLoader original = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader userJar = userJarListing(dir, ContextOnlyProvider.class)) {
      assertThat(Backends.available()).doesNotContain("context-only");
      Thread.currentThread().setContextClassLoader(userJar);
      assertThat(Backends.available()).contains("context-only");
    } finally {
      Thread.currentThread().setContextClassLoader(original);
    }
    assertThat(Backends.available()).doesNotContain("context-only");
  }

  @Test
  void twoProvidersOfOneNameAreReportedNamingBoth(@TempDir Path dir) throws Exception {
    ClassLoader original = Thread.currentThread().getContextClassLoader();
    ClassLoader twice = new ClassLoader(original) {
      @Override
      public Enumeration<URL> getResources(String name) throws IOException {
        if (!name.equals("META-INF/services/io.joblib4j.spi.BackendProvider")) {
          return super.getResources(name);
        }
        Path f = dir.resolve("services");
        Files.writeString(f, Clash1.class.getName() + "\n" + Clash2.class.getName() + "\n");
        Vector<URL> v = new Vector<>(List.of(f.toUri().toURL()));
        return v.elements();
      }
    };
    try {
      Thread.currentThread().setContextClassLoader(twice);
      assertThatThrownBy(Backends::available).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("provided twice").hasMessageContaining("Clash1").hasMessageContaining("Clash2");
    } finally {
      Thread.currentThread().setContextClassLoader(original);
    }
  }

  @Test
  void builtInBackendsAreFoundWithoutReadingServicesFiles() throws Exception {
    // reading the services files opens every jar of the class path: a fresh program's first call
    // must not pay that to find "processes"
    ClassLoader original = Thread.currentThread().getContextClassLoader();
    List<String> servicesRead = new java.util.concurrent.CopyOnWriteArrayList<>();
    ClassLoader recording = new ClassLoader(original) {
      @Override
      public Enumeration<URL> getResources(String name) throws IOException {
        servicesRead.add(name);
        return super.getResources(name);
      }
    };
    try {
      Thread.currentThread().setContextClassLoader(recording);
      for (String name : List.of("sequential", "threads", "processes")) {
        try (Backend b = Backends.create(name, Map.of())) {
          assertThat(b.getClass().getName()).containsIgnoringCase(name);
        }
      }
      assertThat(servicesRead).isEmpty();
      assertThat(Backends.available()).contains("sequential", "threads", "processes", "serializing");
      assertThat(servicesRead).contains("META-INF/services/io.joblib4j.spi.BackendProvider");
    } finally {
      Thread.currentThread().setContextClassLoader(original);
    }
  }

  @Test
  void aJarClaimingABuiltInNameIsReportedWhenTheServicesFilesAreRead(@TempDir Path dir) throws Exception {
    ClassLoader original = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader userJar = userJarListing(dir, ClaimsThreads.class)) {
      Thread.currentThread().setContextClassLoader(userJar);
      try (Backend b = Backends.create("threads", Map.of())) { // the built-in, never the jar's
        assertThat(b).isNotInstanceOf(SerializingBackend.class);
      }
      assertThatThrownBy(Backends::available).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("\"threads\" is joblib4j's own").hasMessageContaining(ClaimsThreads.class.getName());
    } finally {
      Thread.currentThread().setContextClassLoader(original);
    }
  }

  /** A class loader whose services file names {@code provider}, as a Spark user jar's would. */
  private static URLClassLoader userJarListing(Path dir, Class<?> provider) throws IOException {
    Path services = dir.resolve("META-INF/services/io.joblib4j.spi.BackendProvider");
    Files.createDirectories(services.getParent());
    Files.writeString(services, provider.getName() + "\n");
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, Thread.currentThread().getContextClassLoader());
  }

  public static final class ClaimsThreads extends SerializingBackend.ProviderNamed {
    public ClaimsThreads() {
      super("threads");
    }
  }

  public static final class ContextOnlyProvider extends SerializingBackend.ProviderNamed {
    public ContextOnlyProvider() {
      super("context-only");
    }
  }

  public static final class Clash1 extends SerializingBackend.ProviderNamed {
    public Clash1() {
      super("clash");
    }
  }

  public static final class Clash2 extends SerializingBackend.ProviderNamed {
    public Clash2() {
      super("clash");
    }
  }
}
