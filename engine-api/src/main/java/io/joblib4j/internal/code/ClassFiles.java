package io.joblib4j.internal.code;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The class files a class loader serves, read once each and kept per loader: a loader's classes
 * never change once defined, and a function identified again (every {@code memory.cache(f)} call)
 * must not read and parse its code again. Loaders are held weakly, so a REPL's or a test's loader
 * can still be collected.
 */
final class ClassFiles {
  private static final Map<ClassLoader, Map<String, Optional<ParsedClass>>> BY_LOADER = new WeakHashMap<>();
  private static final Map<ClassLoader, Map<String, String>> LOCATIONS = new WeakHashMap<>();

  private ClassFiles() {}

  /**
   * One class as the walk needs it.
   *
   * @param name internal name ({@code com/acme/Scorer})
   * @param superName internal name of the superclass, null for Object and interfaces' absent one
   * @param location where the class file came from: {@code jrt} (the JDK), {@code jar:<jar URL>},
   *     {@code dir} (a folder of classes), or {@code other} (a REPL or generated code)
   * @param methods name + descriptor to code
   */
  record ParsedClass(String name, String superName, List<String> interfaces, String location,
      Map<String, MethodCode> methods) {}

  /** A method's canonical text ({@code ""} if abstract or native) and what it refers to, in text order. */
  record MethodCode(String text, List<MethodRef> refs) {}

  /** The class {@code internalName} as {@code loader} serves it, or empty if it has no readable class file. */
  static Optional<ParsedClass> get(ClassLoader loader, String internalName) {
    ClassLoader l = loaderOrSystem(loader);
    Map<String, Optional<ParsedClass>> classes = perLoader(BY_LOADER, l);
    Optional<ParsedClass> c = classes.get(internalName);
    if (c == null) {
      c = read(l, internalName);
      classes.putIfAbsent(internalName, c);
    }
    return c;
  }

  /**
   * Where {@code loader} serves the class file of {@code internalName} from (see {@link
   * ParsedClass#location()}), without reading it: the walk asks this of every class a method
   * names, and reads only those of the user's code.
   */
  static String location(ClassLoader loader, String internalName) {
    ClassLoader l = loaderOrSystem(loader);
    return perLoader(LOCATIONS, l).computeIfAbsent(internalName, n -> {
      try {
        return location(l.getResource(n + ".class"));
      } catch (RuntimeException e) {
        return "other";
      }
    });
  }

  private static ClassLoader loaderOrSystem(ClassLoader loader) {
    return loader != null ? loader : ClassLoader.getSystemClassLoader();
  }

  private static <V> Map<String, V> perLoader(Map<ClassLoader, Map<String, V>> all, ClassLoader l) {
    synchronized (all) {
      return all.computeIfAbsent(l, k -> new ConcurrentHashMap<>());
    }
  }

  private static Optional<ParsedClass> read(ClassLoader loader, String internalName) {
    String resource = internalName + ".class";
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      return Optional.of(parse(new ClassReader(in), location(loader, internalName)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // not a class file ASM can read: treated as code the walk cannot see
    }
  }

  private static ParsedClass parse(ClassReader reader, String location) {
    Map<String, MethodCode> methods = new HashMap<>();
    String owner = reader.getClassName();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
        StringBuilder sb = new StringBuilder();
        List<MethodRef> refs = new ArrayList<>();
        methods.put(name + desc, new MethodCode("", List.of()));
        return new Canonical(sb, owner, refs) {
          @Override
          public void visitEnd() {
            methods.put(name + desc, new MethodCode(sb.toString(), List.copyOf(refs)));
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ParsedClass(owner, reader.getSuperName(), List.of(reader.getInterfaces()), location, Map.copyOf(methods));
  }

  /** What kind of place a class file was served from; see {@link ParsedClass#location()}. */
  static String location(URL url) {
    if (url == null) {
      return "other";
    }
    String s = url.toString();
    switch (url.getProtocol()) {
      case "jrt":
        return "jrt";
      case "jar": {
        int bang = s.lastIndexOf("!/"); // the innermost jar: a Spring Boot jar's own classes are not its libraries
        return bang < 0 ? s : s.substring(0, bang);
      }
      case "file":
        return "dir";
      default:
        return "other";
    }
  }
}
