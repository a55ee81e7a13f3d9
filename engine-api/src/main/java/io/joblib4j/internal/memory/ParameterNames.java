package io.joblib4j.internal.memory;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Parameter names from a method's class file, for lambda bodies and methods compiled without {@code -parameters}. */
final class ParameterNames {
  private ParameterNames() {}

  /**
   * The parameter names of a method from its class file's local variable table (javac writes it
   * with {@code -g}, Maven's default), for methods whose {@code MethodParameters} attribute is
   * missing — lambda bodies never get one, even with {@code -parameters}.
   */
  static Optional<List<String>> fromClassFile(ClassLoader loader, String owner, String name, String descriptor,
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
}
