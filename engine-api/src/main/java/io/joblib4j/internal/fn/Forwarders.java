package io.joblib4j.internal.fn;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Sees through the method a Scala compiler writes for a method value: {@code slow _} (and {@code x =>
 * slow(x)}) becomes a lambda body {@code $anonfun$f$1} that only fetches {@code slow}'s owner — a
 * REPL cell's wrapper, an {@code object} — passes the arguments on, boxing or unboxing them, and
 * returns what {@code slow} returns. Such a function is {@code slow}: it is named after it and, in
 * {@code Memory}, identified and versioned by it.
 *
 * <p>Anything more in the body (arithmetic, a constant, a second call, a value read from a cell)
 * makes it a lambda of its own.
 */
public final class Forwarders {
  private Forwarders() {}

  /**
   * A method a function's body comes down to.
   *
   * @param owner the internal name of its class ({@code a/b/C})
   * @param name the method name
   * @param descriptor the method descriptor
   * @param kind how it is invoked: a {@link java.lang.invoke.MethodHandleInfo} {@code REF_} kind
   * @param boundReceiver whether the receiver comes from the function itself (a captured value,
   *     an object, a cell) rather than from the first argument
   */
  public record Target(String owner, String name, String descriptor, int kind, boolean boundReceiver) {}

  private static final int MAX_HOPS = 3;
  private static final int MAX_CACHED = 10_000;
  private static final Map<String, Optional<Target>> CACHE = new ConcurrentHashMap<>();

  /**
   * What the Scala lambda body {@code owner.name descriptor} forwards to, after following its
   * {@code $adapted} bridge and nested forwarders; empty if it is not a plain forwarder, or if its
   * class file cannot be read.
   */
  public static Optional<Target> target(ClassLoader loader, String owner, String name, String descriptor) {
    String key = System.identityHashCode(loader) + "|" + owner + "." + name + descriptor;
    Optional<Target> known = CACHE.get(key);
    if (known != null) {
      return known;
    }
    Optional<Target> found = Optional.empty();
    String o = owner;
    String n = name;
    String d = descriptor;
    for (int hop = 0; hop < MAX_HOPS && n.startsWith("$anonfun$"); hop++) {
      Optional<Target> next = forwardsTo(loader, o, n, d);
      if (next.isEmpty()) {
        break;
      }
      found = next;
      o = next.get().owner();
      n = next.get().name();
      d = next.get().descriptor();
    }
    if (CACHE.size() > MAX_CACHED) {
      CACHE.clear();
    }
    CACHE.put(key, found);
    return found;
  }

  private static Optional<Target> forwardsTo(ClassLoader loader, String owner, String name, String descriptor) {
    ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
    try (InputStream in = l.getResourceAsStream(owner.replace('.', '/') + ".class")) {
      if (in == null) {
        return Optional.empty();
      }
      ForwarderScan scan = new ForwarderScan();
      new ClassReader(in).accept(new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String n, String d, String sig, String[] exceptions) {
          return n.equals(name) && d.equals(descriptor) ? scan : null;
        }
      }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
      return scan.result();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Accepts loads of arguments, navigation to the owner, boxing, one call and a return. */
  private static final class ForwarderScan extends MethodVisitor {
    private boolean visited;
    private boolean rejected;
    private boolean navigated;
    private Target target;

    ForwarderScan() {
      super(Opcodes.ASM9);
    }

    Optional<Target> result() {
      return visited && !rejected && target != null ? Optional.of(target) : Optional.empty();
    }

    @Override
    public void visitCode() {
      visited = true;
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      if (opcode > Opcodes.ALOAD) {
        rejected = true; // a store: the body computes something
      }
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      if (opcode != Opcodes.CHECKCAST) {
        rejected = true;
      }
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
      if (opcode == Opcodes.GETSTATIC && name.equals("MODULE$")) {
        navigated = true; // a Scala object's instance
      } else {
        rejected = true;
      }
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
      if (isBoxing(owner, name)) {
        return;
      }
      if (isNavigation(opcode, owner, desc)) {
        navigated = true;
        return;
      }
      if (target != null) {
        rejected = true;
        return;
      }
      int kind = switch (opcode) {
        case Opcodes.INVOKESTATIC -> java.lang.invoke.MethodHandleInfo.REF_invokeStatic;
        case Opcodes.INVOKEINTERFACE -> java.lang.invoke.MethodHandleInfo.REF_invokeInterface;
        case Opcodes.INVOKESPECIAL -> java.lang.invoke.MethodHandleInfo.REF_invokeSpecial;
        default -> java.lang.invoke.MethodHandleInfo.REF_invokeVirtual;
      };
      target = new Target(owner, name, desc, kind, navigated);
    }

    @Override
    public void visitInsn(int opcode) {
      if (opcode < Opcodes.IRETURN || opcode > Opcodes.RETURN) {
        rejected = true;
      }
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      rejected = true;
    }

    @Override
    public void visitLdcInsn(Object value) {
      rejected = true;
    }

    @Override
    public void visitJumpInsn(int opcode, org.objectweb.asm.Label label) {
      rejected = true;
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      rejected = true;
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
      rejected = true;
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, org.objectweb.asm.Label dflt, org.objectweb.asm.Label... labels) {
      rejected = true;
    }

    @Override
    public void visitLookupSwitchInsn(org.objectweb.asm.Label dflt, int[] keys, org.objectweb.asm.Label[] labels) {
      rejected = true;
    }

    @Override
    public void visitMultiANewArrayInsn(String desc, int dims) {
      rejected = true;
    }

    @Override
    public void visitTryCatchBlock(org.objectweb.asm.Label start, org.objectweb.asm.Label end,
        org.objectweb.asm.Label handler, String type) {
      rejected = true;
    }
  }

  /** Scala's and Java's boxing and unboxing of primitive arguments and results. */
  private static boolean isBoxing(String owner, String name) {
    if (owner.equals("scala/runtime/BoxesRunTime")) {
      return name.startsWith("box") || name.startsWith("unbox");
    }
    return owner.startsWith("java/lang/") && (name.equals("valueOf") || name.endsWith("Value"))
        && switch (owner) {
          case "java/lang/Integer", "java/lang/Long", "java/lang/Double", "java/lang/Float",
              "java/lang/Short", "java/lang/Byte", "java/lang/Character", "java/lang/Boolean" -> true;
          default -> false;
        };
  }

  /**
   * A step from a REPL cell's wrapper towards the method's owner: a no-argument accessor of a
   * wrapper that returns another wrapper, a cell's {@code object}, or the outer wrapper. An accessor
   * returning a user's value (a {@code val}) is not navigation: the function then depends on that
   * value and stays a lambda of its own.
   */
  private static boolean isNavigation(int opcode, String owner, String desc) {
    if (opcode != Opcodes.INVOKEVIRTUAL || !ReplNames.isReplClass(owner)) {
      return false;
    }
    Type method = Type.getMethodType(desc);
    if (method.getArgumentTypes().length != 0 || method.getReturnType().getSort() != Type.OBJECT) {
      return false;
    }
    String returned = method.getReturnType().getInternalName();
    return ReplNames.isWrapper(returned) || (ReplNames.isReplClass(returned) && returned.endsWith("$"));
  }
}
