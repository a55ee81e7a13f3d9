package io.joblib4j.internal.memory;

import io.joblib4j.HashAlgorithm;
import io.joblib4j.internal.hash.StreamingHasher;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The code version of a method: a hash of its bytecode instructions, read from its class file with
 * ASM. Line numbers, local variable names and stack map frames are left out, so recompiling or
 * moving unchanged code keeps the version, while any change to what the method does changes it.
 * The bodies of lambdas the method creates are included in place of their compiler-given names
 * ({@code lambda$main$3}), which shift whenever a lambda is added elsewhere in the class.
 */
final class Bytecode {
  private Bytecode() {}

  /**
   * The code version of {@code owner.name descriptor}, or empty if the class file cannot be read
   * (classes generated at run time, some REPLs).
   */
  static Optional<String> version(ClassLoader loader, String owner, String name, String descriptor) {
    Map<String, String> methods;
    try {
      methods = canonicalMethods(loader, owner);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    if (!methods.containsKey(name + descriptor)) {
      return Optional.empty();
    }
    StreamingHasher h = StreamingHasher.create(HashAlgorithm.XXH3_128);
    appendWithLambdas(methods, name + descriptor, h, new HashSet<>());
    return Optional.of(h.hex());
  }

  private static void appendWithLambdas(Map<String, String> methods, String key, StreamingHasher h, Set<String> seen) {
    if (!seen.add(key)) {
      return;
    }
    String body = methods.get(key);
    h.putString(body);
    // each "@lambda:<name+desc>@" marker stands for a body of the same class, hashed in its place
    int at = 0;
    while ((at = body.indexOf("@lambda:", at)) >= 0) {
      int end = body.indexOf('@', at + 1); // descriptors contain ';' but never '@'

      String ref = body.substring(at + "@lambda:".length(), end);
      appendWithLambdas(methods, ref, h, seen);
      at = end;
    }
  }

  /**
   * The parameter names of a method from its class file's local variable table (javac writes it
   * with {@code -g}, Maven's default), for methods whose {@code MethodParameters} attribute is
   * missing — lambda bodies never get one, even with {@code -parameters}.
   */
  static Optional<List<String>> parameterNames(ClassLoader loader, String owner, String name, String descriptor,
      boolean isStatic) {
    String resource = owner.replace('.', '/') + ".class";
    ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
    Type[] args = Type.getArgumentTypes(descriptor);
    int[] slots = new int[args.length];
    int slot = isStatic ? 0 : 1;
    for (int i = 0; i < args.length; i++) {
      slots[i] = slot;
      slot += args[i].getSize();
    }
    String[] names = new String[args.length];
    try (InputStream in = l.getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String n, String d, String sig, String[] exceptions) {
          if (!n.equals(name) || !d.equals(descriptor)) {
            return null;
          }
          return new MethodVisitor(Opcodes.ASM9) {
            private Label first;

            @Override
            public void visitLabel(Label label) {
              if (first == null) {
                first = label;
              }
            }

            @Override
            public void visitLocalVariable(String var, String desc, String sig, Label start, Label end, int index) {
              for (int i = 0; i < slots.length; i++) {
                if (slots[i] == index && start == first && names[i] == null) {
                  names[i] = var;
                }
              }
            }
          };
        }
      }, ClassReader.SKIP_FRAMES);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    for (String n : names) {
      if (n == null) {
        return Optional.empty();
      }
    }
    return Optional.of(List.of(names));
  }

  /** Every method of the class as canonical text, keyed by name + descriptor. */
  private static Map<String, String> canonicalMethods(ClassLoader loader, String owner) throws IOException {
    String resource = owner.replace('.', '/') + ".class";
    ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
    try (InputStream in = l.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no class file " + resource);
      }
      ClassReader reader = new ClassReader(in);
      Map<String, String> out = new HashMap<>();
      String internalOwner = reader.getClassName();
      reader.accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
          StringBuilder sb = new StringBuilder();
          out.put(name + desc, "");
          return new Canonical(sb, internalOwner) {
            @Override
            public void visitEnd() {
              out.put(name + desc, sb.toString());
            }
          };
        }
      }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      return out;
    }
  }

  /** Writes a method's instructions as text, labels numbered in order of appearance. */
  private static class Canonical extends MethodVisitor {
    private final StringBuilder sb;
    private final String owner;
    private final Map<Label, Integer> labels = new HashMap<>();

    Canonical(StringBuilder sb, String owner) {
      super(Opcodes.ASM9);
      this.sb = sb;
      this.owner = owner;
    }

    private String label(Label l) {
      return "L" + labels.computeIfAbsent(l, k -> labels.size());
    }

    @Override
    public void visitInsn(int opcode) {
      sb.append(opcode).append(';');
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      sb.append(opcode).append(' ').append(operand).append(';');
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      sb.append(opcode).append(" v").append(var).append(';');
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      sb.append(opcode).append(' ').append(type).append(';');
    }

    @Override
    public void visitFieldInsn(int opcode, String o, String name, String desc) {
      sb.append(opcode).append(' ').append(o).append('.').append(name).append(':').append(desc).append(';');
    }

    @Override
    public void visitMethodInsn(int opcode, String o, String name, String desc, boolean itf) {
      sb.append(opcode).append(' ').append(o).append('.').append(name).append(desc).append(';');
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... args) {
      sb.append("indy ").append(name).append(desc).append(' ').append(handle(bsm));
      for (Object a : args) {
        sb.append(' ').append(constant(a));
      }
      sb.append(';');
    }

    @Override
    public void visitJumpInsn(int opcode, Label target) {
      sb.append(opcode).append(' ').append(label(target)).append(';');
    }

    @Override
    public void visitLabel(Label l) {
      sb.append(label(l)).append(':');
    }

    @Override
    public void visitLdcInsn(Object value) {
      sb.append("ldc ").append(constant(value)).append(';');
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      sb.append("iinc v").append(var).append(' ').append(increment).append(';');
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... targets) {
      sb.append("tableswitch ").append(min).append(' ').append(max).append(' ').append(label(dflt));
      for (Label t : targets) {
        sb.append(' ').append(label(t));
      }
      sb.append(';');
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] targets) {
      sb.append("lookupswitch ").append(label(dflt));
      for (int i = 0; i < keys.length; i++) {
        sb.append(' ').append(keys[i]).append('=').append(label(targets[i]));
      }
      sb.append(';');
    }

    @Override
    public void visitMultiANewArrayInsn(String desc, int dims) {
      sb.append("multianewarray ").append(desc).append(' ').append(dims).append(';');
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      sb.append("try ").append(label(start)).append(' ').append(label(end)).append(' ')
          .append(label(handler)).append(' ').append(type).append(';');
    }

    private String handle(Handle h) {
      if (h.getOwner().equals(owner) && h.getName().startsWith("lambda$")) {
        return "@lambda:" + h.getName() + h.getDesc() + "@";
      }
      return h.getTag() + ":" + h.getOwner() + "." + h.getName() + h.getDesc();
    }

    private String constant(Object c) {
      if (c instanceof Handle h) {
        return handle(h);
      }
      if (c instanceof Type t) {
        return "T" + t.getDescriptor();
      }
      if (c instanceof String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace(";", "\\u003b") + "\"";
      }
      return c.getClass().getSimpleName() + ":" + c;
    }
  }
}
