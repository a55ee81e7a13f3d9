package io.joblib4j.examples.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and {@code docs/*.md} compiles against joblib4j and Spark,
 * in one run of javac. The convention (DEVELOPERS.md, "The user guide's code blocks"): the line
 * before each Java block is an HTML comment, invisible on GitHub, saying what the block is:
 *
 * <ul>
 *   <li>{@code <!-- java: unit -->}: a whole source file, compiled as it is;
 *   <li>{@code <!-- java: fragment ... -->}: statements, compiled as the body of a method that may
 *       throw anything; each further line of the comment is one declaration the fragment assumes:
 *       an {@code import}, a top-level {@code class}/{@code record}/{@code interface}/{@code enum}
 *       on one line, or otherwise a member (a field, a method) of the class around the method.
 *       {@code import} lines of the fragment itself are moved to the top.
 * </ul>
 *
 * The hello world's {@code fresh-project} marker counts as {@code unit} (FreshProjectIT also runs it).
 * Blocks of other languages (Scala, shell, XML, Gradle, sbt) are not compiled.
 */
class GuideCodeBlocksTest {
  private static final Pattern TOP_LEVEL = Pattern.compile(
      "^(?:(?:public|final|abstract|sealed|static)\\s+)*(?:class|record|interface|enum)\\s.*");
  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "(?m)^public\\s+(?:(?:final|abstract)\\s+)*(?:class|record|interface|enum)\\s+(\\w+)");

  /** A Java block: where it is, what its comment says, and its text. */
  record Block(String page, int line, String kind, List<String> context, String code) {
    String where() {
      return page + ":" + line;
    }
  }

  @Test
  void everyJavaBlockOfTheGuideCompiles(@TempDir Path work) throws IOException {
    Path root = root();
    List<Block> blocks = new ArrayList<>();
    for (Path page : pages(root)) {
      blocks.addAll(blocks(root.relativize(page).toString().replace('\\', '/'),
          Files.readString(page, StandardCharsets.UTF_8)));
    }
    assertThat(blocks).as("Java blocks in the guide").hasSizeGreaterThanOrEqualTo(7);
    List<String> unmarked = blocks.stream().filter(b -> b.kind() == null).map(Block::where).toList();
    assertThat(unmarked).as("Java blocks without a <!-- java: unit --> or <!-- java: fragment --> comment"
        + " on the line before them").isEmpty();
    assertThat(compile(blocks, work)).as("javac's errors in the guide's code blocks").isEmpty();
  }

  @Test
  void aFragmentThatDoesNotCompileIsReportedAtItsPageAndLine(@TempDir Path work) throws IOException {
    String page = "# P\n\n<!-- java: fragment\nimport java.util.List;\nclass Tool { static int twice(int x) { return 2 * x; } }\n"
        + "List<Integer> xs;\n-->\n```java\nint ok = Tool.twice(xs.get(0));\n```\n\ntext\n\n"
        + "<!-- java: fragment -->\n```java\nint bad = Tool.twice(1);\n```\n";
    List<Block> blocks = blocks("docs/p.md", page);
    assertThat(blocks).extracting(Block::kind).containsExactly("fragment", "fragment");
    List<String> errors = compile(blocks, work);
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith("docs/p.md:16 (line 1 of the block): ").contains("Tool");
  }

  /** The repository's root: the parent of this module's folder, where Surefire runs. */
  static Path root() {
    Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    assertThat(root.resolve("README.md")).as("the repository's README beside this module").isRegularFile();
    return root;
  }

  static List<Path> pages(Path root) throws IOException {
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /**
   * A fenced block of one language: the number of its first line, its text, and the HTML comment on
   * the lines before it (its first line; for one spread over lines, the lines between its first and
   * its {@code -->}, stripped), or a null opening where there is none. Shared with {@link
   * GuideScalaBlocksTest}, each reading its own markers.
   */
  record Fenced(int line, String code, String opening, List<String> declarations) {}

  static List<Fenced> fenced(String markdown, String language) {
    Pattern fence = Pattern.compile("^```" + language + "\\s*$");
    List<String> lines = Arrays.asList(markdown.split("\n", -1));
    List<Fenced> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!fence.matcher(lines.get(i)).matches()) {
        continue;
      }
      int end = i + 1;
      while (end < lines.size() && !lines.get(end).startsWith("```")) {
        end++;
      }
      String code = String.join("\n", lines.subList(i + 1, end));
      int before = i - 1;
      String previous = before >= 0 ? lines.get(before).strip() : "";
      String opening = null;
      List<String> declarations = new ArrayList<>();
      if (previous.startsWith("<!--") && previous.endsWith("-->")) {
        opening = previous;
      } else if (previous.equals("-->")) {
        int open = before - 1;
        while (open >= 0 && !lines.get(open).strip().startsWith("<!--")) {
          open--;
        }
        if (open >= 0) {
          opening = lines.get(open).strip();
          declarations.addAll(lines.subList(open + 1, before).stream().map(String::strip)
              .filter(l -> !l.isEmpty()).toList());
        }
      }
      out.add(new Fenced(i + 2, code, opening, declarations));
      i = end;
    }
    return out;
  }

  /** The Java blocks of {@code markdown}, each with the comment before it. */
  static List<Block> blocks(String page, String markdown) {
    List<Block> blocks = new ArrayList<>();
    for (Fenced f : fenced(markdown, "java")) {
      String opening = f.opening() == null ? "" : f.opening();
      String kind = opening.equals("<!-- fresh-project: Hello.java -->") || opening.equals("<!-- java: unit -->") ? "unit"
          : opening.startsWith("<!-- java: fragment") ? "fragment" : null;
      blocks.add(new Block(page, f.line(), kind, "fragment".equals(kind) ? f.declarations() : List.of(), f.code() + "\n"));
    }
    return blocks;
  }

  /** Compiles every block in one javac run; javac's errors, each at its page and line. */
  static List<String> compile(List<Block> blocks, Path work) throws IOException {
    List<Path> sources = new ArrayList<>();
    List<Block> ofSource = new ArrayList<>();
    List<Integer> firstCodeLine = new ArrayList<>();
    for (int n = 0; n < blocks.size(); n++) {
      Block block = blocks.get(n);
      String pkg = "guide.block" + n;
      StringBuilder source = new StringBuilder("package " + pkg + ";\n");
      String name;
      int codeLine;
      if ("unit".equals(block.kind())) {
        Matcher publicType = PUBLIC_TYPE.matcher(block.code());
        name = publicType.find() ? publicType.group(1) : "Unit";
        codeLine = 2;
        source.append(block.code());
      } else {
        name = "Fragment";
        List<String> code = block.code().lines().toList();
        List<String> imports = new ArrayList<>();
        List<String> topLevel = new ArrayList<>();
        List<String> members = new ArrayList<>();
        for (String line : block.context()) {
          (line.startsWith("import ") ? imports : TOP_LEVEL.matcher(line).matches() ? topLevel : members).add(line);
        }
        code.stream().filter(l -> l.startsWith("import ")).forEach(imports::add);
        imports.forEach(i -> source.append(i).append('\n'));
        source.append("class Fragment {\n");
        members.forEach(m -> source.append("  ").append(m).append('\n'));
        source.append("  void fragment() throws Throwable {\n");
        codeLine = source.toString().split("\n", -1).length;
        // import lines stay as blank lines, so that javac's line numbers are the block's
        code.forEach(l -> source.append(l.startsWith("import ") ? "" : l).append('\n'));
        source.append("  }\n}\n");
        topLevel.forEach(t -> source.append(t).append('\n'));
      }
      Path file = work.resolve("src").resolve(pkg.replace('.', '/')).resolve(name + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source, StandardCharsets.UTF_8);
      sources.add(file);
      ofSource.add(block);
      firstCodeLine.add(codeLine);
    }

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path classes = Files.createDirectories(work.resolve("classes"));
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options = List.of("--release", "17", "-proc:none", "-implicit:none", "-Xlint:none",
          "-classpath", classPath(), "-d", classes.toString());
      javac.getTask(new StringWriter(), files, diagnostics, options, null,
          files.getJavaFileObjectsFromPaths(sources)).call();
    }
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      int at = d.getSource() == null ? -1 : sources.indexOf(Path.of(d.getSource().toUri()));
      if (at < 0) {
        errors.add(d.getMessage(Locale.ROOT));
        continue;
      }
      Block block = ofSource.get(at);
      long lineInBlock = d.getLineNumber() - firstCodeLine.get(at) + 1;
      String where = lineInBlock >= 1 && lineInBlock <= block.code().lines().count()
          ? block.page() + ":" + (block.line() + lineInBlock - 1) + " (line " + lineInBlock + " of the block)"
          : block.where() + " (in the declarations of its comment)";
      errors.add(where + ": " + d.getMessage(Locale.ROOT));
    }
    return errors;
  }

  /**
   * This test's class path (joblib4j's modules, Spark, Hadoop) without the bundle jar, which holds
   * the same joblib4j classes again: what an application compiles against.
   */
  static String classPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("joblib4j-spark-4-bundle"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
