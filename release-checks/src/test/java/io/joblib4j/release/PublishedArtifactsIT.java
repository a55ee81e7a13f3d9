package io.joblib4j.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * What Maven Central and a user's build need of every published jar, read from the jars this build
 * made: a stable Java module name, joblib4j's LICENSE and NOTICE, and sources and javadoc jars
 * beside it; and engine-api, with its dependencies, working on the module path.
 */
class PublishedArtifactsIT {

  @Test
  void everyPublishedJarNamesItsJavaModuleAndGoesOnTheModulePathUnderThatName() throws IOException {
    for (Release.Published m : Release.modules()) {
      try (JarFile jar = new JarFile(m.jar().toFile())) {
        assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"))
            .as(m.artifactId() + " Automatic-Module-Name").isEqualTo(m.moduleName());
      }
      // what the JVM makes of the jar on the module path; from the file name alone, a _2.13 jar fails:
      // "Invalid module name: '2' is not a Java identifier"
      Set<ModuleReference> found = ModuleFinder.of(m.jar()).findAll();
      assertThat(found).extracting(r -> r.descriptor().name()).as(m.artifactId()).containsExactly(m.moduleName());
    }
  }

  @Test
  void everyPublishedJarCarriesJoblib4jsLicenseAndNotice() throws IOException {
    String license = Files.readString(Release.root().resolve("LICENSE"), StandardCharsets.UTF_8);
    assertThat(license).contains("Apache License").contains("Version 2.0, January 2004");
    for (Release.Published m : Release.modules()) {
      try (JarFile jar = new JarFile(m.jar().toFile())) {
        assertThat(text(jar, "META-INF/LICENSE")).as(m.artifactId() + " META-INF/LICENSE").isEqualTo(license);
        assertThat(text(jar, "META-INF/NOTICE")).as(m.artifactId() + " META-INF/NOTICE")
            .contains("Copyright 2026 The joblib4j authors");
      }
    }
  }

  @Test
  void everyPublishedJarHasASourcesAndAJavadocJarBesideIt() throws IOException {
    for (Release.Published m : Release.modules()) {
      try (JarFile sources = new JarFile(beside(m.jar(), "sources").toFile())) {
        assertThat(names(sources)).as(m.artifactId() + " sources jar")
            .anyMatch(n -> n.startsWith("io/joblib4j/") && (n.endsWith(".java") || n.endsWith(".scala")));
      }
      try (JarFile javadoc = new JarFile(beside(m.jar(), "javadoc").toFile())) {
        assertThat(names(javadoc)).as(m.artifactId() + " javadoc jar").contains("index.html");
      }
    }
    try (JarFile javadoc = new JarFile(beside(module("joblib4j-engine-api").jar(), "javadoc").toFile())) {
      assertThat(names(javadoc)).as("engine-api's javadoc: the API and the SPI, no internals")
          .contains("io/joblib4j/Parallel.html", "io/joblib4j/spi/Backend.html", "io/joblib4j/package-summary.html")
          .noneMatch(n -> n.contains("/internal/"));
    }
  }

  /**
   * A user's own module that {@code requires io.joblib4j}, compiled and run on the module path with
   * engine-api and its dependencies. engine-api is an automatic module, and so is
   * Kryo 5, which uses {@code sun.misc.Unsafe}: automatic modules declare no
   * {@code requires}, so their named dependencies and {@code jdk.unsupported} join the module graph
   * through {@code --add-modules ALL-MODULE-PATH,jdk.unsupported}, as the README says.
   */
  @Test
  void engineApiWorksOnTheModulePathForAModuleThatRequiresIt() throws Exception {
    Path dir = Release.freshFolder("module-path");
    Path src = Files.createDirectories(dir.resolve("src/hello/app"));
    Files.writeString(dir.resolve("src/hello/module-info.java"), "module hello.app { requires io.joblib4j; }\n");
    Files.writeString(src.resolve("Main.java"), """
        package hello.app;

        import io.joblib4j.Joblib;
        import io.joblib4j.Parallel;
        import java.util.List;

        public class Main {
          static int square(int x) {
            return x * x;
          }

          public static void main(String[] args) {
            try (Parallel parallel = Parallel.nJobs(2)) {
              System.out.println("squares " + parallel.map(Main::square, List.of(1, 2, 3, 4)));
            }
            System.out.println("hash " + Joblib.hash(List.of(1, 2, 3)));
            Module joblib4j = Parallel.class.getModule();
            System.out.println("module " + joblib4j.getName() + " automatic=" + joblib4j.getDescriptor().isAutomatic());
          }
        }
        """);
    String modulePath = Release.property("release.engineApiModulePath");
    Path classes = dir.resolve("classes");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int compiled = javac.run(null, null, null, "--release", "17", "--module-path", modulePath, "-d",
        classes.toString(), dir.resolve("src/hello/module-info.java").toString(), src.resolve("Main.java").toString());
    assertThat(compiled).as("javac of a module that requires io.joblib4j").isZero();

    Release.Outcome run = Release.run(List.of(Release.java(), "-Xmx256m", "--module-path",
        classes + File.pathSeparator + modulePath, "--add-modules", "ALL-MODULE-PATH,jdk.unsupported", "--module", "hello.app/hello.app.Main"),
        dir, Map.of(), dir.resolve("run.log"), 2);
    assertThat(run.exitCode()).as(run.tail()).isZero();
    assertThat(run.output()).as(run.tail()).contains("squares [1, 4, 9, 16]")
        .contains("hash " + io.joblib4j.Joblib.hash(List.of(1, 2, 3)))
        .contains("module io.joblib4j automatic=true");
    List<String> names = new ArrayList<>();
    ModuleFinder.of(java.util.Arrays.stream(modulePath.split(File.pathSeparator)).map(Path::of).toArray(Path[]::new))
        .findAll().forEach(r -> names.add(r.descriptor().name()));
    assertThat(names).as("the module path: engine-api and its dependencies").contains("io.joblib4j", "org.slf4j")
        .doesNotContain("io.joblib4j.spark", "org.junit.jupiter.api");
  }

  private static Release.Published module(String artifactId) {
    return Release.modules().stream().filter(m -> m.artifactId().equals(artifactId)).findFirst().orElseThrow();
  }

  /** {@code x-0.1.0.jar} → {@code x-0.1.0-<classifier>.jar}, in the same folder (target/ or the local repository). */
  private static Path beside(Path jar, String classifier) {
    String name = jar.getFileName().toString();
    Path other = jar.resolveSibling(name.substring(0, name.length() - ".jar".length()) + "-" + classifier + ".jar");
    assertThat(other).as("the " + classifier + " jar beside " + jar + " (built unless -Dmaven." + classifier
        .replace("sources", "source") + ".skip)").isRegularFile();
    return other;
  }

  private static List<String> names(JarFile jar) {
    return Collections.list(jar.entries()).stream().map(JarEntry::getName).collect(Collectors.toList());
  }

  private static String text(JarFile jar, String entry) throws IOException {
    JarEntry e = jar.getJarEntry(entry);
    assertThat(e).as(entry + " in " + jar.getName()).isNotNull();
    try (var in = jar.getInputStream(e)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
