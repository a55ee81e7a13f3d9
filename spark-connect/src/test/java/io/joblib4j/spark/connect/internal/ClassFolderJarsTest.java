package io.joblib4j.spark.connect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Class files as a jar named by its content: what a Spark 3.5 session is given for classes kept in memory. */
class ClassFolderJarsTest {
  @Test
  void classFilesKeepTheirPackageFoldersAndTheSameClassesMakeTheSameJar() throws Exception {
    Map<String, byte[]> files = Map.of("pkg/a/Triple.class", new byte[] {1, 2, 3}, "pkg/a/Triple$1.class", new byte[] {4});
    Path jar = ClassFolderJars.jarOfFiles("classes", files);
    assertThat(jar.getFileName().toString()).matches("classes-[0-9a-f]{16}\\.jar");
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getInputStream(j.getEntry("pkg/a/Triple.class")).readAllBytes()).containsExactly(1, 2, 3);
      assertThat(j.getEntry("pkg/a/Triple$1.class")).isNotNull();
    }
    assertThat(ClassFolderJars.jarOfFiles("classes", Map.of("pkg/a/Triple$1.class", new byte[] {4},
        "pkg/a/Triple.class", new byte[] {1, 2, 3})).getFileName()).isEqualTo(jar.getFileName());
    assertThat(ClassFolderJars.jarOfFiles("classes", Map.of("pkg/a/Triple.class", new byte[] {9})).getFileName())
        .isNotEqualTo(jar.getFileName());
  }

  @Test
  void aClassFolderBecomesAJarOfItsFilesUnderTheirRelativePaths(@TempDir Path dir) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("out/pkg"));
    Files.write(folder.resolve("A.class"), new byte[] {7});
    Path jar = ClassFolderJars.jarOf(dir.resolve("out"));
    assertThat(jar.getFileName().toString()).startsWith("out-");
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getInputStream(j.getEntry("pkg/A.class")).readAllBytes()).containsExactly(7);
    }
  }
}
