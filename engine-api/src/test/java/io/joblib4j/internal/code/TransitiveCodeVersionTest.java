package io.joblib4j.internal.code;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A code version covers the methods of the user's code a function reaches, not only its own: each
 * case compiles variants of a small program at test time into their own class loaders, as a
 * rebuilt application would be, and compares the versions of {@code gen.Work.f(int)}.
 */
class TransitiveCodeVersionTest {
  @TempDir Path dir;
  private int builds;

  private static final CodeScope DEFAULT = new CodeScope(List.of(), List.of(), CodeScope.MAX_METHODS, CodeScope.MAX_DEPTH);

  /** Compiles {@code sources} (file name to source) into a folder and loads it in a loader of its own. */
  private ClassLoader build(Map<String, String> sources) throws IOException {
    Path out = compile(sources);
    return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
  }

  private Path compile(Map<String, String> sources, Path... classpath) throws IOException {
    Path root = dir.resolve("b" + builds++);
    Path out = root.resolve("classes");
    Files.createDirectories(out);
    List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", classpathOf(classpath)));
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path src = root.resolve("src").resolve(e.getKey());
      Files.createDirectories(src.getParent());
      Files.writeString(src, e.getValue());
      args.add(src.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, args.toArray(new String[0]))).isZero();
    return out;
  }

  private static String classpathOf(Path... extra) {
    StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
    for (Path p : extra) {
      cp.append(java.io.File.pathSeparator).append(p);
    }
    return cp.toString();
  }

  private static CodeVersion version(ClassLoader loader, CodeScope scope) {
    return CodeVersion.of(loader, "gen.Work", "f", "(I)I", scope).orElseThrow();
  }

  private static CodeVersion version(ClassLoader loader) {
    return version(loader, DEFAULT);
  }

  private static Map<String, String> sources(String... fileAndSource) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < fileAndSource.length; i += 2) {
      m.put(fileAndSource[i], fileAndSource[i + 1]);
    }
    return m;
  }

  private static String work(String body, String more) {
    return "package gen;\npublic class Work {\n  public static int f(int x) {\n    " + body + "\n  }\n" + more + "\n}\n";
  }

  @Test
  void aChangedMethodOfTheSameClassChangesTheVersion() throws Exception {
    String helper = "  static int helper(int x) { return x * %d; }";
    CodeVersion v1 = version(build(sources("gen/Work.java", work("return helper(x) + 1;", helper.formatted(2)))));
    CodeVersion again = version(build(sources("gen/Work.java",
        "// moved lines\n\n" + work("return helper(x) + 1;", helper.formatted(2)))));
    CodeVersion v2 = version(build(sources("gen/Work.java", work("return helper(x) + 1;", helper.formatted(3)))));
    assertThat(again.hex()).isEqualTo(v1.hex());
    assertThat(v2.hex()).isNotEqualTo(v1.hex());
    assertThat(v1.methods()).containsExactly("gen/Work.f(I)I", "gen/Work.helper(I)I");
  }

  private static final String HELPER = """
      package gen;
      public class Helper {
        private final int k = %d;
        public int scale(int x) { return x * k + %d; }
      }
      """;

  @Test
  void aChangedMethodOrConstructorOfAnotherUserClassChangesTheVersion() throws Exception {
    String work = work("return new Helper().scale(x);", "");
    CodeVersion v1 = version(build(sources("gen/Work.java", work, "gen/Helper.java", HELPER.formatted(2, 0))));
    CodeVersion method = version(build(sources("gen/Work.java", work, "gen/Helper.java", HELPER.formatted(2, 1))));
    CodeVersion constructor = version(build(sources("gen/Work.java", work, "gen/Helper.java", HELPER.formatted(5, 0))));
    assertThat(method.hex()).isNotEqualTo(v1.hex());
    assertThat(constructor.hex()).isNotEqualTo(v1.hex()).isNotEqualTo(method.hex());
    assertThat(v1.methods()).contains("gen/Helper.<init>()V", "gen/Helper.scale(I)I");
  }

  private static Map<String, String> chain(int last) {
    return sources(
        "gen/Work.java", work("return A.a(x);", ""),
        "gen/A.java", "package gen; class A { static int a(int x) { return B.b(x) + 1; } }",
        "gen/B.java", "package gen; class B { static int b(int x) { return C.c(x) + 1; } }",
        "gen/C.java", "package gen; class C { static int c(int x) { return x + " + last + "; } }");
  }

  @Test
  void aChainThreeCallsDeepIsFollowedToItsEnd() throws Exception {
    CodeVersion v1 = version(build(chain(1)));
    assertThat(v1.methods()).containsExactly("gen/Work.f(I)I", "gen/A.a(I)I", "gen/B.b(I)I", "gen/C.c(I)I");
    assertThat(version(build(chain(2))).hex()).isNotEqualTo(v1.hex());
    assertThat(version(build(chain(1))).hex()).isEqualTo(v1.hex());
  }

  @Test
  void theJdkIsNotWalked() throws Exception {
    CodeVersion v = version(build(sources("gen/Work.java", work(
        "return Math.abs(x) + String.valueOf(x).length() + java.util.List.of(x).stream().mapToInt(Integer::intValue).sum();",
        ""))));
    assertThat(v.methods()).containsExactly("gen/Work.f(I)I");
    assertThat(v.truncated()).isFalse();
  }

  @Test
  void recursionAndCyclesEnd() throws Exception {
    String more = """
          static int g(int x) { return x <= 0 ? 0 : f(x - 1) + g(x - 2) + %d; }
        """;
    CodeVersion v1 = version(build(sources("gen/Work.java", work("return x <= 0 ? 0 : g(x) + f(x - 1);", more.formatted(1)))));
    CodeVersion v2 = version(build(sources("gen/Work.java", work("return x <= 0 ? 0 : g(x) + f(x - 1);", more.formatted(2)))));
    assertThat(v1.methods()).containsExactly("gen/Work.f(I)I", "gen/Work.g(I)I");
    assertThat(v2.hex()).isNotEqualTo(v1.hex());
  }

  /** f calls m1, m1 calls m2, ... m{n-1} calls m{n}, which returns x + last. */
  private static Map<String, String> longChain(int n, int last) {
    StringBuilder more = new StringBuilder();
    for (int i = 1; i < n; i++) {
      more.append("  static int m").append(i).append("(int x) { return m").append(i + 1).append("(x) + 1; }\n");
    }
    more.append("  static int m").append(n).append("(int x) { return x + ").append(last).append("; }\n");
    return sources("gen/Work.java", work("return m1(x);", more.toString()));
  }

  @Test
  void theBoundsOnMethodsAndDepthAreRespected() throws Exception {
    ClassLoader l1 = build(longChain(30, 1));
    ClassLoader l2 = build(longChain(30, 2));
    CodeScope deep = new CodeScope(List.of(), List.of(), 1000, 100);
    CodeVersion all = version(l1, deep);
    assertThat(all.methods()).hasSize(31);
    assertThat(all.truncated()).isFalse();
    assertThat(version(l2, deep).hex()).isNotEqualTo(all.hex());
    // by default calls are followed 20 deep
    assertThat(version(l1).methods()).hasSize(CodeScope.MAX_DEPTH + 1);
    assertThat(version(l1).truncated()).isTrue();

    CodeScope fewMethods = new CodeScope(List.of(), List.of(), 10, 100);
    assertThat(version(l1, fewMethods).methods()).hasSize(10);
    assertThat(version(l1, fewMethods).truncated()).isTrue();
    // beyond the bound a change is not seen: the documented price of a bounded walk
    assertThat(version(l2, fewMethods).hex()).isEqualTo(version(l1, fewMethods).hex());

    CodeScope shallow = new CodeScope(List.of(), List.of(), 1000, 5);
    assertThat(version(l1, shallow).methods()).hasSize(6).endsWith("gen/Work.m5(I)I");
    assertThat(version(l1, shallow).truncated()).isTrue();
  }

  @Test
  void aLibraryJarIsNotWalkedUnlessItsPackageIsIncluded() throws Exception {
    String lib = "package lib; public class Lib { public static int twice(int x) { return 2 * x + %d; } }";
    String work = work("return lib.Lib.twice(x);", "");
    ClassLoader v1 = buildWithJar(lib.formatted(0), work);
    ClassLoader v2 = buildWithJar(lib.formatted(1), work);
    assertThat(version(v1).methods()).containsExactly("gen/Work.f(I)I");
    assertThat(version(v2).hex()).isEqualTo(version(v1).hex());
    CodeScope withLib = new CodeScope(List.of("lib/"), List.of(), 1000, 20);
    assertThat(version(v1, withLib).methods()).containsExactly("gen/Work.f(I)I", "lib/Lib.twice(I)I");
    assertThat(version(v2, withLib).hex()).isNotEqualTo(version(v1, withLib).hex());
    CodeScope withoutGen = new CodeScope(List.of(), List.of("gen/"), 1000, 20);
    assertThat(version(build(chain(1)), withoutGen).methods()).containsExactly("gen/Work.f(I)I");
  }

  /** {@code gen.Work} in a folder, {@code lib.Lib} in a jar beside it, one loader for both. */
  private ClassLoader buildWithJar(String libSource, String workSource) throws IOException {
    Path libClasses = compile(sources("lib/Lib.java", libSource));
    Path jar = libClasses.resolveSibling("lib.jar");
    try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o);
        Stream<Path> files = Files.walk(libClasses)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        j.putNextEntry(new JarEntry(libClasses.relativize(f).toString().replace('\\', '/')));
        j.write(Files.readAllBytes(f));
        j.closeEntry();
      }
    }
    Path workClasses = compile(sources("gen/Work.java", workSource), jar);
    return new URLClassLoader(new URL[] {workClasses.toUri().toURL(), jar.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void inheritedMethodsAreFoundButOverridesInSubclassesAreNotFollowed() throws Exception {
    String base = "package gen; class Base { int inherited(int x) { return x + %d; } int m(int x) { return x; } }";
    String sub = "package gen; class Sub extends Base { int m(int x) { return x * %d; } }";
    String work = "package gen;\npublic class Work extends Base {\n"
        + "  public static int f(int x) { Base b = new Sub(); return new Work().inherited(x) + b.m(x); }\n}\n";
    CodeVersion v1 = version(build(sources("gen/Work.java", work, "gen/Base.java", base.formatted(1), "gen/Sub.java", sub.formatted(2))));
    CodeVersion base2 = version(build(sources("gen/Work.java", work, "gen/Base.java", base.formatted(2), "gen/Sub.java", sub.formatted(2))));
    CodeVersion sub3 = version(build(sources("gen/Work.java", work, "gen/Base.java", base.formatted(1), "gen/Sub.java", sub.formatted(3))));
    assertThat(v1.methods()).contains("gen/Base.inherited(I)I", "gen/Base.m(I)I", "gen/Sub.<init>()V")
        .doesNotContain("gen/Sub.m(I)I");
    assertThat(base2.hex()).isNotEqualTo(v1.hex());
    assertThat(sub3.hex()).isEqualTo(v1.hex()); // the call names Base.m: Sub.m is not known to it
  }

  @Test
  void staticInitializersAndMethodReferencesOfUserClassesCount() throws Exception {
    String tables = "package gen; class Tables { static final int[] T = build(); static int[] build() { return new int[] {%d}; }"
        + " static int twice(int x) { return 2 * x + %d; } }";
    String work = work("return Tables.T[0] + java.util.stream.IntStream.of(x).map(Tables::twice).sum();", "");
    CodeVersion v1 = version(build(sources("gen/Work.java", work, "gen/Tables.java", tables.formatted(1, 0))));
    CodeVersion init = version(build(sources("gen/Work.java", work, "gen/Tables.java", tables.formatted(2, 0))));
    CodeVersion ref = version(build(sources("gen/Work.java", work, "gen/Tables.java", tables.formatted(1, 1))));
    assertThat(v1.methods()).contains("gen/Tables.<clinit>()V", "gen/Tables.build()[I", "gen/Tables.twice(I)I");
    assertThat(init.hex()).isNotEqualTo(v1.hex());
    assertThat(ref.hex()).isNotEqualTo(v1.hex()).isNotEqualTo(init.hex());
  }

  /** A REPL's cell {@code n}: a wrapper class whose def f calls a def g of the same cell. */
  private static Map<String, String> replCell(int n, int body) {
    return sources("$line" + n + "/$read.java", "package $line" + n + ";\npublic class $read {\n"
        + "  public int f(int x) { return g(x) + 1; }\n  int g(int x) { return x * " + body + "; }\n}\n");
  }

  @Test
  void aReplCellNumberIsNotPartOfTheVersion() throws Exception {
    CodeVersion cell3 = CodeVersion.of(build(replCell(3, 2)), "$line3.$read", "f", "(I)I", DEFAULT).orElseThrow();
    CodeVersion cell7 = CodeVersion.of(build(replCell(7, 2)), "$line7.$read", "f", "(I)I", DEFAULT).orElseThrow();
    CodeVersion changed = CodeVersion.of(build(replCell(7, 3)), "$line7.$read", "f", "(I)I", DEFAULT).orElseThrow();
    assertThat(cell3.methods()).containsExactly("$line3/$read.f(I)I", "$line3/$read.g(I)I");
    assertThat(cell7.hex()).isEqualTo(cell3.hex()); // the notebook restarted: more cells ran before
    assertThat(changed.hex()).isNotEqualTo(cell7.hex());
  }

  @Test
  void aSecondIdentificationDoesNotWalkAgain() throws Exception {
    ClassLoader l = build(chain(1));
    CodeVersion first = version(l);
    assertThat(version(l)).isSameAs(first);
  }
}
