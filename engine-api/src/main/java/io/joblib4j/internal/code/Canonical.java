package io.joblib4j.internal.code;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes a method's instructions as text, labels numbered in order of appearance, and lists the
 * methods it refers to in the same order. Line numbers, local variable names and frames are not
 * visited (the reader skips them), so they never change the text. The text is part of stored
 * code versions: changing how an instruction is written changes the version of every function.
 */
class Canonical extends MethodVisitor {
  private final StringBuilder sb;
  private final String owner;
  private final List<MethodRef> refs;
  private final Map<Label, Integer> labels = new HashMap<>();

  Canonical(StringBuilder sb, String owner, List<MethodRef> refs) {
    super(Opcodes.ASM9);
    this.sb = sb;
    this.owner = owner;
    this.refs = refs;
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
    if (opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC) {
      refs.add(new MethodRef(MethodRef.Kind.STATIC_INIT, o, "<clinit>", "()V"));
    }
  }

  @Override
  public void visitMethodInsn(int opcode, String o, String name, String desc, boolean itf) {
    sb.append(opcode).append(' ').append(o).append('.').append(name).append(desc).append(';');
    refs.add(new MethodRef(MethodRef.Kind.CALL, o, name, desc));
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

  /**
   * A lambda body of this class is marked so that the walk hashes it where it is created; any
   * other method handle (a method reference, a bootstrap method) is a reference like a call.
   */
  private String handle(Handle h) {
    if (h.getOwner().equals(owner) && h.getName().startsWith("lambda$")) {
      refs.add(new MethodRef(MethodRef.Kind.LAMBDA, h.getOwner(), h.getName(), h.getDesc()));
      return "@lambda:" + h.getName() + h.getDesc() + "@";
    }
    if (h.getTag() != Opcodes.H_GETFIELD && h.getTag() != Opcodes.H_PUTFIELD && h.getTag() != Opcodes.H_GETSTATIC
        && h.getTag() != Opcodes.H_PUTSTATIC) {
      refs.add(new MethodRef(MethodRef.Kind.CALL, h.getOwner(), h.getName(), h.getDesc()));
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
