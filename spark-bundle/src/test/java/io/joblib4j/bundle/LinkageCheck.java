package io.joblib4j.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Every reference from a jar's classes to a class, method or field that a class path lacks: what
 * would be a NoClassDefFoundError, NoSuchMethodError or NoSuchFieldError when that code runs on it.
 * It reads class files with ASM and loads nothing, so it sees code paths no test happens to run —
 * the bundle built against one Spark line, checked against another line's jars.
 */
public final class LinkageCheck implements AutoCloseable {
  /** Methods the JVM links by name alone, whatever the call site's descriptor. */
  private static final Set<String> SIGNATURE_POLYMORPHIC =
      Set.of("java/lang/invoke/MethodHandle", "java/lang/invoke/VarHandle");

  private final URLClassLoader classFiles;
  private final Map<String, Optional<ClassInfo>> index = new HashMap<>();

  /** The members of one class, as name + descriptor. */
  private record ClassInfo(String superName, String[] interfaces, Set<String> methods, Set<String> fields) {}

  /** @param classpath the jar under test first, then the class path it must link against; the JDK is always there */
  public LinkageCheck(List<Path> classpath) {
    URL[] urls = classpath.stream().map(LinkageCheck::url).toArray(URL[]::new);
    this.classFiles = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
  }

  /**
   * The unresolved references from the classes of {@code jar}, each as
   * {@code "target  <-  first referring class"}, leaving out targets {@code ignored} accepts.
   */
  public List<String> unresolvedFrom(Path jar, Predicate<String> ignored) throws IOException {
    return unresolvedFrom(jar, from -> true, ignored);
  }

  /**
   * The same for the classes of {@code jar} that {@code checked} accepts (by internal name,
   * {@code io/joblib4j/Parallel}): a jar whose parts run on different class paths.
   */
  public List<String> unresolvedFrom(Path jar, Predicate<String> checked, Predicate<String> ignored) throws IOException {
    Map<String, String> problems = new TreeMap<>();
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (JarEntry e : (Iterable<JarEntry>) jf.stream()::iterator) {
        if (!e.getName().endsWith(".class") || e.getName().startsWith("META-INF/")) {
          continue;
        }
        try (InputStream in = jf.getInputStream(e)) {
          String from = e.getName().substring(0, e.getName().length() - ".class".length());
          if (!checked.test(from)) {
            continue;
          }
          for (String target : references(in.readAllBytes())) {
            String problem = check(target);
            if (problem != null && !ignored.test(target)) {
              problems.putIfAbsent(problem, from);
            }
          }
        }
      }
    }
    List<String> out = new ArrayList<>();
    problems.forEach((problem, from) -> out.add(problem + "  <-  " + from));
    return out;
  }

  @Override
  public void close() throws IOException {
    classFiles.close();
  }

  // ---- what a class refers to ----------------------------------------------------------------

  /** References as "C" (a class), "C.name(desc)" (a method) or "C.name:desc" (a field). */
  private static Set<String> references(byte[] classFile) {
    Set<String> refs = new HashSet<>();
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        if (superName != null) {
          refs.add(superName);
        }
        refs.addAll(List.of(interfaces));
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitTypeInsn(int opcode, String type) {
            addType(refs, type);
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            addMember(refs, owner, owner + "." + name + ":" + descriptor);
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            addMember(refs, owner, owner + "." + name + descriptor);
          }

          @Override
          public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... args) {
            addHandle(refs, bsm);
            for (Object a : args) {
              if (a instanceof Handle h) {
                addHandle(refs, h);
              } else if (a instanceof Type t && t.getSort() == Type.OBJECT) {
                refs.add(t.getInternalName());
              }
            }
          }

          @Override
          public void visitLdcInsn(Object value) {
            if (value instanceof Type t && (t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY)) {
              addType(refs, t.getInternalName());
            }
          }

          @Override
          public void visitMultiANewArrayInsn(String descriptor, int dims) {
            addType(refs, descriptor);
          }

          @Override
          public void visitTryCatchBlock(org.objectweb.asm.Label start, org.objectweb.asm.Label end,
              org.objectweb.asm.Label handler, String type) {
            if (type != null) {
              refs.add(type);
            }
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return refs;
  }

  private static void addHandle(Set<String> refs, Handle h) {
    boolean field = h.getTag() <= Opcodes.H_PUTSTATIC;
    addMember(refs, h.getOwner(), h.getOwner() + "." + h.getName() + (field ? ":" : "") + h.getDesc());
  }

  private static void addMember(Set<String> refs, String owner, String member) {
    if (owner.startsWith("[")) {
      addType(refs, owner); // clone() and length of an array: only its element class must exist
    } else {
      refs.add(owner);
      refs.add(member);
    }
  }

  private static void addType(Set<String> refs, String internalNameOrDescriptor) {
    Type t = internalNameOrDescriptor.startsWith("[")
        ? Type.getType(internalNameOrDescriptor) : Type.getObjectType(internalNameOrDescriptor);
    if (t.getSort() == Type.ARRAY) {
      t = t.getElementType();
    }
    if (t.getSort() == Type.OBJECT) {
      refs.add(t.getInternalName());
    }
  }

  // ---- whether the class path has it ---------------------------------------------------------

  /** null when {@code ref} resolves, else what is missing. */
  private String check(String ref) {
    int dot = ref.indexOf('.');
    if (dot < 0) {
      return info(ref) == null ? "missing class " + ref.replace('/', '.') : null;
    }
    String owner = ref.substring(0, dot);
    String member = ref.substring(dot + 1);
    if (info(owner) == null || SIGNATURE_POLYMORPHIC.contains(owner)) {
      return null; // the missing class is reported on its own
    }
    boolean field = member.indexOf(':') >= 0;
    return declares(owner, member, field, new HashSet<>()) ? null
        : "missing " + (field ? "field " : "method ") + owner.replace('/', '.') + "." + member;
  }

  /** The JVM's lookup: the class, its superclasses, then every superinterface. */
  private boolean declares(String owner, String member, boolean field, Set<String> seen) {
    if (owner == null || !seen.add(owner)) {
      return false;
    }
    ClassInfo c = info(owner);
    if (c == null) {
      return false;
    }
    if ((field ? c.fields : c.methods).contains(member)) {
      return true;
    }
    if (member.startsWith("<init>(")) {
      return false;
    }
    if (declares(c.superName, member, field, seen)) {
      return true;
    }
    for (String i : c.interfaces) {
      if (declares(i, member, field, seen)) {
        return true;
      }
    }
    return false;
  }

  private ClassInfo info(String internalName) {
    return index.computeIfAbsent(internalName, this::read).orElse(null);
  }

  private Optional<ClassInfo> read(String internalName) {
    try (InputStream in = classFiles.getResourceAsStream(internalName + ".class")) {
      if (in == null) {
        return Optional.empty();
      }
      Set<String> methods = new HashSet<>();
      Set<String> fields = new HashSet<>();
      String[] header = new String[1];
      String[][] interfaces = new String[1][];
      new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] ifaces) {
          header[0] = superName;
          interfaces[0] = ifaces;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
          methods.add(name + descriptor);
          return null;
        }

        @Override
        public org.objectweb.asm.FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
          fields.add(name + ":" + descriptor);
          return null;
        }
      }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      return Optional.of(new ClassInfo(header[0], interfaces[0], methods, fields));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + internalName, e);
    }
  }

  private static URL url(Path p) {
    try {
      return p.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(p.toString(), e);
    }
  }
}
