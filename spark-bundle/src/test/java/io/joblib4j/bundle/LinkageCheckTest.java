package io.joblib4j.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class LinkageCheckTest {
  @TempDir Path dir;

  @Test
  void reportsMissingClassesMethodsAndFieldsAndNothingThatResolves() throws IOException {
    Path jar = jarWith("demo/Caller", mv -> {
      // resolves: a JDK method, an inherited method, a JDK field, a method of a class in the jar
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "()I", false);
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/StringBuilder", "hashCode", "()I", false);
      mv.visitFieldInsn(Opcodes.GETSTATIC, "java/lang/System", "out", "Ljava/io/PrintStream;");
      mv.visitMethodInsn(Opcodes.INVOKESTATIC, "demo/Caller", "run", "()V", false);
      mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/List", "size", "()I", true);
      // does not: a method with another descriptor, a field, a class
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "(I)I", false);
      mv.visitFieldInsn(Opcodes.GETSTATIC, "java/lang/System", "nowhere", "Ljava/io/PrintStream;");
      mv.visitTypeInsn(Opcodes.NEW, "org/apache/spark/Missing");
      mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "org/apache/spark/Missing", "<init>", "()V", false);
      mv.visitTypeInsn(Opcodes.ANEWARRAY, "me/tongfei/progressbar/ProgressBar");
    });
    try (LinkageCheck check = new LinkageCheck(List.of(jar))) {
      assertThat(check.unresolvedFrom(jar, t -> t.startsWith("me/tongfei/"))).containsExactly(
          "missing class org.apache.spark.Missing  <-  demo/Caller",
          "missing field java.lang.System.nowhere:Ljava/io/PrintStream;  <-  demo/Caller",
          "missing method java.lang.String.length(I)I  <-  demo/Caller");
      assertThat(check.unresolvedFrom(jar, t -> false)).contains("missing class me.tongfei.progressbar.ProgressBar  <-  demo/Caller");
    }
  }

  private Path jarWith(String name, java.util.function.Consumer<MethodVisitor> body) throws IOException {
    ClassWriter cw = new ClassWriter(0);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", "()V", null, null);
    mv.visitCode();
    body.accept(mv);
    mv.visitInsn(Opcodes.RETURN);
    mv.visitMaxs(4, 0);
    mv.visitEnd();
    cw.visitEnd();
    Path jar = dir.resolve("t.jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
      j.putNextEntry(new JarEntry(name + ".class"));
      j.write(cw.toByteArray());
      j.closeEntry();
    }
    return jar;
  }
}
