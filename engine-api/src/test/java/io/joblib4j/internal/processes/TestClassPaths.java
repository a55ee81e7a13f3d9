package io.joblib4j.internal.processes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Class paths for the programs tests start: jars only, as a packaged application's. */
final class TestClassPaths {
  private TestClassPaths() {}

  /**
   * This JVM's class path as jars only (the test runner's manifest jar's entries, minus folders),
   * with {@code testJar} first, holding {@code classes} (their lambdas are compiled into them).
   */
  static List<String> jarsWith(Path testJar, Class<?>... classes) throws IOException {
    List<String> jars = runnerJars();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(testJar), new Manifest())) {
      for (Class<?> c : classes) {
        String name = c.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(name));
        try (var in = c.getClassLoader().getResourceAsStream(name)) {
          in.transferTo(out);
        }
      }
    }
    jars.add(0, testJar.toString());
    return jars;
  }

  /** As {@link #jarsWith}, with a folder of {@code classes} first instead of a jar (an IDE's {@code target/classes}). */
  static List<String> folderWith(Path folder, Class<?>... classes) throws IOException {
    List<String> jars = runnerJars();
    for (Class<?> c : classes) {
      String name = c.getName().replace('.', '/') + ".class";
      Path file = folder.resolve(name);
      Files.createDirectories(file.getParent());
      try (var in = c.getClassLoader().getResourceAsStream(name)) {
        Files.copy(in, file);
      }
    }
    jars.add(0, folder.toString());
    return jars;
  }

  private static List<String> runnerJars() throws IOException {
    List<String> jars = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(e);
      if (Files.isRegularFile(p)) {
        try (JarFile jf = new JarFile(p.toFile())) {
          String cp = jf.getManifest() == null ? null : jf.getManifest().getMainAttributes().getValue("Class-Path");
          if (cp != null) {
            for (String ref : cp.trim().split("\\s+")) {
              Path r = ref.startsWith("file:") ? Path.of(java.net.URI.create(ref)) : p.resolveSibling(ref);
              if (Files.isRegularFile(r)) {
                jars.add(r.toString());
              }
            }
            continue;
          }
        }
        jars.add(p.toString());
      }
    }
    return jars;
  }
}
