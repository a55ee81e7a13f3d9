package io.joblib4j.internal.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.joblib4j.Memory;
import io.joblib4j.fn.Fn1;
import io.joblib4j.testing.Captured;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * joblib's test_memory_file_modification / in_memory_function_code_change: a function whose code
 * changes gets new entries, one recompiled unchanged keeps its entries. The versions are real
 * classes compiled at test time and loaded by separate class loaders, as a rebuilt jar would be.
 */
class CodeVersionTest {
  @TempDir Path dir;

  private static final String SOURCE = """
      package gen;
      public class Work {
        public static int calls;
        public static int f(int x) {
          calls++;
          %s
        }
        public static io.joblib4j.fn.Fn1<Integer, Integer> fn() {
          return Work::f;
        }
        public static io.joblib4j.fn.Fn1<Integer, Integer> lambda() {
          return x -> { calls++; %s };
        }
      }
      """;

  /** The class compiled from {@code body}, in its own class loader; {@code padding} moves lines. */
  private Class<?> compile(String name, String body, String padding) throws IOException {
    return compile(name, body, padding, "");
  }

  /** As above, with {@code more} (other classes of package gen) in the same source file. */
  private Class<?> compile(String name, String body, String padding, String more) throws IOException {
    Path src = dir.resolve(name + "/src/gen/Work.java");
    Path out = dir.resolve(name + "/classes");
    Files.createDirectories(src.getParent());
    Files.createDirectories(out);
    Files.writeString(src, padding + SOURCE.formatted(body, body) + more);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", out.toString(), "-cp", System.getProperty("java.class.path"), src.toString());
    assertThat(rc).isZero();
    try {
      return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader()).loadClass("gen.Work");
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Fn1<Integer, Integer> fn(Class<?> c, String factory) throws Exception {
    return (Fn1<Integer, Integer>) c.getMethod(factory).invoke(null);
  }

  private static int calls(Class<?> c) throws Exception {
    return c.getField("calls").getInt(null);
  }

  @Test
  void changingTheBodyInvalidatesRecompilingUnchangedCodeDoesNot() throws Exception {
    Memory memory = Memory.builder(dir.resolve("cache")).verbose(0).build();
    Class<?> v1 = compile("v1", "return x + 1;", "");
    assertThat(memory.cache(fn(v1, "fn")).apply(10)).isEqualTo(11);
    assertThat(calls(v1)).isEqualTo(1);

    // the same source compiled again, its lines moved by a comment: still a hit
    Class<?> v1again = compile("v1again", "return x + 1;", "// a comment\n\n\n");
    assertThat(memory.cache(fn(v1again, "fn")).apply(10)).isEqualTo(11);
    assertThat(calls(v1again)).isZero();

    // a changed body: recomputed, with a warning that two codes share one name in this JVM
    Class<?> v2 = compile("v2", "return x + 2;", "");
    List<String> warnings = Captured.warnings(() -> {
      try {
        assertThat(memory.cache(fn(v2, "fn")).apply(10)).isEqualTo(12);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertThat(calls(v2)).isEqualTo(1);
    assertThat(warnings).anyMatch(w -> w.contains("Possible name collision"));
    // the old version's entries were cleared from the function's folder
    LocalStore store = new LocalStore(dir.resolve("cache"));
    assertThat(store.list("").stream().filter(f -> f.directory() && Layout.isEntry(f.path()))).hasSize(1);
  }

  @Test
  void aLambdaWhoseCodeChangesWarnsThatLambdaNamesCannotBeChecked() throws Exception {
    Memory memory = Memory.builder(dir.resolve("cache")).verbose(0).build();
    Class<?> v1 = compile("l1", "return x * 10;", "");
    assertThat(memory.cache(fn(v1, "lambda")).apply(3)).isEqualTo(30);
    Class<?> v2 = compile("l2", "return x * 100;", "");
    List<String> warnings = Captured.warnings(() -> {
      try {
        assertThat(memory.cache(fn(v2, "lambda")).apply(3)).isEqualTo(300);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertThat(warnings).anyMatch(w -> w.contains("Cannot detect name collisions"));
  }

  @Test
  void changingAMethodTheFunctionCallsInvalidatesItsEntries() throws Exception {
    Memory memory = Memory.builder(dir.resolve("cache")).verbose(0).build();
    // f's own body is the same in both versions; only the helper it calls changes
    Class<?> v1 = compile("h1", "return Helper.offset() + x;", "", "class Helper { static int offset() { return 1; } }");
    assertThat(memory.cache(fn(v1, "fn")).apply(10)).isEqualTo(11);
    Class<?> v2 = compile("h2", "return Helper.offset() + x;", "", "class Helper { static int offset() { return 2; } }");
    Captured.warnings(() -> {
      try {
        assertThat(memory.cache(fn(v2, "fn")).apply(10)).isEqualTo(12); // not the stale 11
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertThat(calls(v2)).isEqualTo(1);
  }

  @Test
  void lineNumbersAndLocalNamesDoNotChangeTheVersionButInstructionsDo() throws Exception {
    Class<?> a = compile("a", "int y = x + 1; return y;", "");
    Class<?> b = compile("b", "int renamed = x + 1; return renamed;", "\n\n\n\n");
    Class<?> c = compile("c", "int y = x - 1; return y;", "");
    String va = FunctionIdentity.of(fn(a, "fn"), 1).codeVersion();
    assertThat(FunctionIdentity.of(fn(b, "fn"), 1).codeVersion()).isEqualTo(va);
    assertThat(FunctionIdentity.of(fn(c, "fn"), 1).codeVersion()).isNotEqualTo(va);
  }
}
