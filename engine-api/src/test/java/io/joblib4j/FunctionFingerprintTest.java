package io.joblib4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.joblib4j.fn.Fn1;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FunctionFingerprint keys code as Memory does, for FnN lambdas and for other function objects,
 * and follows functions captured by functions (as Spark's UDF wrappers hold the user's UDF). The
 * versions are classes compiled at test time in their own class loaders, as a rebuilt jar would be.
 */
class FunctionFingerprintTest {
  @TempDir Path dir;

  private static final String SOURCE = """
      package gen;
      public class Udfs {
        public static int f(int x) {
          %s
        }
        /** A wrapper that only calls the function it holds, as Spark's UDF wrappers do. */
        public static io.joblib4j.fn.Fn1<Integer, Integer> wrapped() {
          io.joblib4j.fn.Fn1<Integer, Integer> inner = Udfs::f;
          return x -> inner.apply(x);
        }
        public static io.joblib4j.fn.Fn1<Integer, Integer> adding(int k) {
          return x -> x + k;
        }
        public static class Plus implements java.util.function.Function<Integer, Integer>, java.io.Serializable {
          final int k;
          public Plus(int k) { this.k = k; }
          public Integer apply(Integer x) { return helper(x) + k; }
          private int helper(int x) { %s }
        }
      }
      """;

  private Class<?> compile(String name, String body) throws IOException {
    Path src = dir.resolve(name + "/src/gen/Udfs.java");
    Path out = dir.resolve(name + "/classes");
    Files.createDirectories(src.getParent());
    Files.createDirectories(out);
    Files.writeString(src, SOURCE.formatted(body, body));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", out.toString(), "-cp", System.getProperty("java.class.path"), src.toString());
    assertThat(rc).isZero();
    try {
      return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader()).loadClass("gen.Udfs");
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  private static Object call(Class<?> c, String factory, Object... args) throws Exception {
    for (var m : c.getMethods()) {
      if (m.getName().equals(factory) && m.getParameterCount() == args.length) {
        return m.invoke(null, args);
      }
    }
    throw new AssertionError("no " + factory);
  }

  @Test
  void aChangedBodyOfACapturedFunctionChangesTheHashAndAnUnchangedRecompileDoesNot() throws Exception {
    FunctionFingerprint v1 = FunctionFingerprint.of(call(compile("v1", "return x + 1;"), "wrapped"));
    FunctionFingerprint same = FunctionFingerprint.of(call(compile("same", "return x + 1;"), "wrapped"));
    FunctionFingerprint v2 = FunctionFingerprint.of(call(compile("v2", "return x + 2;"), "wrapped"));

    assertThat(same).isEqualTo(v1);
    assertThat(same.hash()).isEqualTo(v1.hash());
    // the wrapper's own code and captured values (the inner function by its name) are unchanged...
    assertThat(v2.codeVersion()).isEqualTo(v1.codeVersion());
    assertThat(v2.capturedHash()).isEqualTo(v1.capturedHash());
    // ...but the code of the function it holds changed
    assertThat(v2.hash()).isNotEqualTo(v1.hash());
    assertThat(v1.identity()).startsWith("gen.Udfs#lambda$wrapped$");
    assertThat(v1.codeKnown()).isTrue();
  }

  @Test
  void capturedValuesAreHashedAsMemoryHashesThem() throws Exception {
    Class<?> c = compile("cap", "return x;");
    FunctionFingerprint three = FunctionFingerprint.of(call(c, "adding", 3));
    FunctionFingerprint four = FunctionFingerprint.of(call(c, "adding", 4));
    assertThat(four.identity()).isEqualTo(three.identity());
    assertThat(four.codeVersion()).isEqualTo(three.codeVersion());
    assertThat(four.capturedHash()).isNotEqualTo(three.capturedHash());
    assertThat(FunctionFingerprint.of(call(c, "adding", 3))).isEqualTo(three);
  }

  @Test
  void anObjectImplementingAnotherFunctionalInterfaceIsVersionedByEveryMethodOfItsClass() throws Exception {
    Class<?> v1 = compile("o1", "return x * 2;");
    Class<?> v2 = compile("o2", "return x * 3;");
    Object p1 = v1.getClassLoader().loadClass("gen.Udfs$Plus").getConstructor(int.class).newInstance(5);
    Object p1again = v1.getClassLoader().loadClass("gen.Udfs$Plus").getConstructor(int.class).newInstance(5);
    Object p2 = v2.getClassLoader().loadClass("gen.Udfs$Plus").getConstructor(int.class).newInstance(5);
    Object p1six = v1.getClassLoader().loadClass("gen.Udfs$Plus").getConstructor(int.class).newInstance(6);

    FunctionFingerprint f1 = FunctionFingerprint.of(p1);
    assertThat(f1.identity()).isEqualTo("gen.Udfs$Plus");
    assertThat(FunctionFingerprint.of(p1again)).isEqualTo(f1);
    assertThat(FunctionFingerprint.of(p2).codeVersion()).isNotEqualTo(f1.codeVersion()); // helper changed
    assertThat(FunctionFingerprint.of(p1six).capturedHash()).isNotEqualTo(f1.capturedHash());
  }

  @Test
  void aFunctionThatCannotBeHashedSaysWhy() {
    Thread t = new Thread(() -> { });
    Fn1<Integer, Integer> holdsAThread = x -> x + t.getName().length();
    assertThatThrownBy(() -> FunctionFingerprint.of(holdsAThread))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("captured arg 0");
    assertThatThrownBy(() -> FunctionFingerprint.of(null)).isInstanceOf(NullPointerException.class);
    Function<Integer, Integer> notSerializable = x -> x;
    assertThatThrownBy(() -> FunctionFingerprint.of(notSerializable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not Serializable");
  }
}
