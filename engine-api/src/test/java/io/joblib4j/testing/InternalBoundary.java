package io.joblib4j.testing;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The check that keeps {@code io.joblib4j.internal} internal: every module other than engine-api
 * runs it over its own compiled classes (main and test), and it fails listing each class that
 * names a type of an {@code io.joblib4j.internal} package — in a field, a method signature, a call,
 * a cast, a constant. Such a module would break whenever engine-api changes its internals; what it
 * needs belongs in the public API or the SPI.
 *
 * <p>It reads each class file's constant pool, where the JVM keeps every name a class refers to,
 * so nothing is missed however the reference is written (an import, a fully qualified name, a
 * lambda's signature).
 */
public final class InternalBoundary {
  /** The package prefix, as class files write it. */
  static final String INTERNAL = "io/joblib4j/internal/";

  private InternalBoundary() {}

  /** Fails if a class compiled from the module that holds {@code anchors} refers to engine-api's internals. */
  public static void assertNoInternalReferences(Class<?>... anchors) {
    List<String> found = new ArrayList<>();
    for (Class<?> anchor : anchors) {
      found.addAll(violations(locationOf(anchor)));
    }
    if (!found.isEmpty()) {
      throw new AssertionError("these classes use io.joblib4j.internal, which is engine-api's own and may"
          + " change at any time; use the public API or io.joblib4j.spi instead (move what is missing"
          + " there):\n  " + String.join("\n  ", found));
    }
  }

  /** Each class under {@code location} (a folder of classes or a jar) that refers to an internal type, with the type. */
  public static List<String> violations(Path location) {
    List<String> out = new ArrayList<>();
    try {
      if (Files.isDirectory(location)) {
        try (Stream<Path> files = Files.walk(location)) {
          for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
            check(location.relativize(f).toString(), Files.readAllBytes(f), out);
          }
        }
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          for (var e : (Iterable<java.util.jar.JarEntry>) jar.stream()::iterator) {
            if (e.getName().endsWith(".class")) {
              try (InputStream in = jar.getInputStream(e)) {
                check(e.getName(), in.readAllBytes(), out);
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static void check(String name, byte[] classFile, List<String> out) throws IOException {
    TreeSet<String> internal = new TreeSet<>();
    for (String s : utf8Constants(classFile)) {
      int at = s.indexOf(INTERNAL);
      while (at >= 0) {
        int end = at;
        while (end < s.length() && (Character.isJavaIdentifierPart(s.charAt(end)) || s.charAt(end) == '/')) {
          end++;
        }
        internal.add(s.substring(at, end).replace('/', '.'));
        at = s.indexOf(INTERNAL, end);
      }
    }
    if (!internal.isEmpty()) {
      out.add(name.replace(".class", "").replace('/', '.').replace('\\', '.') + " uses " + internal);
    }
  }

  /** The CONSTANT_Utf8 entries of a class file: every class name, descriptor and signature it mentions. */
  public static List<String> utf8Constants(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> out = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> out.add(in.readUTF()); // the class file's modified UTF-8 is DataInput's
        case 3, 4 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++; // longs and doubles take two slots
        }
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
        case 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 15 -> in.skipNBytes(3);
        default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
      }
    }
    return out;
  }

  private static Path locationOf(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
