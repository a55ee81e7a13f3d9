package io.joblib4j.spark.connect.internal;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;

/**
 * Where a class's code is on this machine, so that the Connect server can be given it: a jar, a
 * class folder (a build's output), or the output folder of a REPL whose classes have no code source
 * but whose bytes are files on disk. Classes of the JDK have none; classes a REPL or notebook keeps
 * in memory only are {@link Kind#IN_MEMORY}: shipped as class files when their loader serves them
 * ({@link InMemoryClasses}).
 *
 * @param kind what kind of place
 * @param path the jar, the folder, or the REPL's output folder (null for the other kinds)
 */
record CodeLocation(Kind kind, Path path) {
  enum Kind { JAR, FOLDER, REPL_FOLDER, IN_MEMORY, PLATFORM }

  static final CodeLocation PLATFORM = new CodeLocation(Kind.PLATFORM, null);
  static final CodeLocation IN_MEMORY = new CodeLocation(Kind.IN_MEMORY, null);

  private static final ClassValue<CodeLocation> OF = new ClassValue<>() {
    @Override
    protected CodeLocation computeValue(Class<?> type) {
      return find(type);
    }
  };

  /** Where {@code type}'s code is; computed once per class. */
  static CodeLocation of(Class<?> type) {
    while (type.isArray()) {
      type = type.getComponentType();
    }
    return type.isPrimitive() ? PLATFORM : OF.get(type);
  }

  private static CodeLocation find(Class<?> type) {
    if (type.getClassLoader() == null || type.getClassLoader() == ClassLoader.getPlatformClassLoader()) {
      return PLATFORM; // the JDK's
    }
    try {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
        Path p = Path.of(source.getLocation().toURI());
        return new CodeLocation(Files.isDirectory(p) ? Kind.FOLDER : Kind.JAR, p);
      }
    } catch (SecurityException | URISyntaxException | IllegalArgumentException unreadable) {
      // fall through: look for the bytes themselves
    }
    return replFolder(type).map(p -> new CodeLocation(Kind.REPL_FOLDER, p)).orElse(IN_MEMORY);
  }

  /**
   * A class with no code source whose bytes its loader serves from a file (a REPL started with an
   * output folder: Scala's names it in a {@code memory:} URL holding the file's path): that folder.
   */
  static Optional<Path> replFolder(Class<?> type) {
    String relative = InMemoryClasses.classFile(type); // a hidden class: its bytes are its host's
    URL url = type.getClassLoader().getResource(relative);
    if (url == null) {
      return Optional.empty();
    }
    String file = "file".equals(url.getProtocol()) ? url.getPath() : url.getPath() != null ? url.getPath() : "";
    try {
      Path p = Path.of(java.net.URLDecoder.decode(file, java.nio.charset.StandardCharsets.UTF_8)).toAbsolutePath();
      if (!Files.isRegularFile(p) || !p.endsWith(relative)) {
        return Optional.empty();
      }
      Path root = p;
      for (int i = 0; i < Path.of(relative).getNameCount(); i++) {
        root = root.getParent();
      }
      return Optional.ofNullable(root);
    } catch (RuntimeException notAPath) {
      return Optional.empty();
    }
  }
}
