package io.joblib4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * The check that every public type of a module says how stable it is (DEVELOPERS.md, "API
 * stability"): each public type of a public package carries {@code @API(status = ...)}, and each
 * {@code internal} package is marked {@code @API(status = INTERNAL)} as a whole in its
 * {@code package-info.java}. Every Java module runs it over its own main classes.
 */
public final class ApiStatus {
  private ApiStatus() {}

  /** Fails listing each public type of the module that holds {@code anchor} without a status. */
  public static void assertEveryPublicTypeIsMarked(Class<?> anchor) {
    List<String> problems = unmarked(anchor);
    if (!problems.isEmpty()) {
      throw new AssertionError("public types without @API(status = ...), from org.apiguardian:apiguardian-api"
          + " (STABLE, MAINTAINED, EXPERIMENTAL, DEPRECATED; see DEVELOPERS.md), and internal packages"
          + " without @API(status = INTERNAL) in their package-info.java:\n  " + String.join("\n  ", problems));
    }
  }

  /** What {@link #assertEveryPublicTypeIsMarked} would list. */
  public static List<String> unmarked(Class<?> anchor) {
    ClassLoader loader = anchor.getClassLoader();
    List<String> problems = new ArrayList<>();
    Set<String> internalPackages = new TreeSet<>();
    for (String name : classNames(location(anchor))) {
      if (name.endsWith(".package-info") || name.equals("module-info")) {
        continue;
      }
      Class<?> c;
      try {
        c = Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        problems.add(name + " cannot be loaded: " + e);
        continue;
      }
      if (c.getPackageName().contains(".internal")) {
        internalPackages.add(c.getPackageName());
      } else if (isPublicApi(c) && !c.isAnnotationPresent(API.class)) {
        problems.add(c.getName());
      }
    }
    Path location = location(anchor);
    for (String pkg : internalPackages) {
      if (!markedInternal(location, pkg)) {
        problems.add("package " + pkg);
      }
    }
    return problems;
  }

  /**
   * Whether the module's own {@code package-info.class} of {@code pkg} is marked INTERNAL. Read from
   * the class file, not through the class loader: a test source tree may hold a package-info of the
   * same package that would be found first.
   */
  private static boolean markedInternal(Path location, String pkg) {
    String entry = pkg.replace('.', '/') + "/package-info.class";
    try {
      byte[] bytes;
      if (Files.isDirectory(location)) {
        Path file = location.resolve(entry);
        if (!Files.exists(file)) {
          return false;
        }
        bytes = Files.readAllBytes(file);
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          var e = jar.getJarEntry(entry);
          if (e == null) {
            return false;
          }
          try (var in = jar.getInputStream(e)) {
            bytes = in.readAllBytes();
          }
        }
      }
      List<String> constants = InternalBoundary.utf8Constants(bytes);
      return constants.contains("L" + API.class.getName().replace('.', '/') + ";") && constants.contains("INTERNAL");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isPublicApi(Class<?> c) {
    if (c.isSynthetic() || c.isAnonymousClass() || c.isLocalClass()) {
      return false;
    }
    for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
      if (!java.lang.reflect.Modifier.isPublic(k.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private static List<String> classNames(Path location) {
    List<String> names = new ArrayList<>();
    try {
      if (Files.isDirectory(location)) {
        try (Stream<Path> files = Files.walk(location)) {
          files.filter(p -> p.toString().endsWith(".class"))
              .forEach(p -> names.add(binaryName(location.relativize(p).toString())));
        }
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          jar.stream().filter(e -> e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/"))
              .forEach(e -> names.add(binaryName(e.getName())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }

  private static String binaryName(String classFile) {
    return classFile.substring(0, classFile.length() - ".class".length()).replace('\\', '.').replace('/', '.');
  }

  private static Path location(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
