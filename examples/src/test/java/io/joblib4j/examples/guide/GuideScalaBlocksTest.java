package io.joblib4j.examples.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every ```scala block of the guide compiles, as {@link GuideCodeBlocksTest} does for Java: the line
 * before it is {@code <!-- scala: fragment} (its further lines, up to {@code -->}, are declarations
 * the fragment assumes: imports, {@code val}s, {@code def}s, written at the top of the object around
 * it), or {@code <!-- sbt -->} for a build definition, whose artifacts {@code FreshProjectIT} checks.
 * A fragment is compiled as the body of a method, with scalac in a JVM of its own on this test's
 * class path (joblib4j's modules with the Scala API, Spark, Hadoop).
 */
class GuideScalaBlocksTest {
  private static final Pattern ERROR = Pattern.compile("^(.*?Fragment(\\d+)\\.scala):(\\d+): error: (.*)$");

  /** A Scala block: where it is, its marker ("fragment", "sbt" or null), what the marker declares, its text. */
  record Block(String page, int line, String kind, List<String> context, String code) {}

  @Test
  void everyScalaBlockOfTheGuideCompiles(@TempDir Path work) throws Exception {
    Path root = GuideCodeBlocksTest.root();
    List<Block> blocks = new ArrayList<>();
    for (Path page : GuideCodeBlocksTest.pages(root)) {
      blocks.addAll(blocks(root.relativize(page).toString().replace('\\', '/'),
          Files.readString(page, StandardCharsets.UTF_8)));
    }
    assertThat(blocks).as("Scala blocks in the guide").isNotEmpty();
    assertThat(blocks.stream().filter(b -> b.kind() == null).map(b -> b.page() + ":" + b.line()).toList())
        .as("Scala blocks without a <!-- scala: fragment --> or <!-- sbt --> comment on the line before them").isEmpty();
    List<Block> fragments = blocks.stream().filter(b -> "fragment".equals(b.kind())).toList();
    assertThat(fragments).as("Scala fragments in the guide").hasSizeGreaterThanOrEqualTo(2);
    assertThat(compile(fragments, work)).as("scalac's errors in the guide's Scala blocks").isEmpty();
  }

  static List<Block> blocks(String page, String markdown) {
    List<Block> out = new ArrayList<>();
    for (GuideCodeBlocksTest.Fenced f : GuideCodeBlocksTest.fenced(markdown, "scala")) {
      String opening = f.opening() == null ? "" : f.opening();
      String kind = opening.equals("<!-- sbt -->") ? "sbt"
          : opening.equals("<!-- scala: fragment -->") || opening.equals("<!-- scala: fragment") ? "fragment" : null;
      out.add(new Block(page, f.line(), kind, "fragment".equals(kind) ? f.declarations() : List.of(), f.code()));
    }
    return out;
  }

  /** scalac's errors, each at its page and line. */
  static List<String> compile(List<Block> fragments, Path work) throws Exception {
    List<String> sources = new ArrayList<>();
    List<Integer> firstCodeLine = new ArrayList<>();
    Path src = Files.createDirectories(work.resolve("src"));
    for (int n = 0; n < fragments.size(); n++) {
      Block b = fragments.get(n);
      StringBuilder s = new StringBuilder("package guide.scala" + n + "\n\n");
      b.context().stream().filter(l -> l.strip().startsWith("import ")).forEach(l -> s.append(l).append('\n'));
      s.append("object Fragment").append(n).append(" {\n");
      b.context().stream().filter(l -> !l.strip().startsWith("import ") && !l.isBlank())
          .forEach(l -> s.append("  ").append(l).append('\n'));
      s.append("  def fragment(): Unit = {\n");
      firstCodeLine.add(s.toString().split("\n", -1).length);
      s.append(b.code()).append("\n    ()\n  }\n}\n");
      Path file = src.resolve("Fragment" + n + ".scala");
      Files.writeString(file, s, StandardCharsets.UTF_8);
      sources.add(file.toString());
    }
    Path classes = Files.createDirectories(work.resolve("classes"));
    String classPath = GuideCodeBlocksTest.classPath();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xss4m", "-cp", classPath, "scala.tools.nsc.Main", "-nowarn", "-classpath", classPath,
        "-d", classes.toString()));
    cmd.addAll(sources);
    Path log = work.resolve("scalac.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("scalac ended").isTrue();
    List<String> errors = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      Matcher m = ERROR.matcher(line);
      if (m.matches()) {
        int n = Integer.parseInt(m.group(2));
        Block b = fragments.get(n);
        int inBlock = Integer.parseInt(m.group(3)) - firstCodeLine.get(n) + 1;
        errors.add((inBlock >= 1 ? b.page() + ":" + (b.line() + inBlock - 1) + " (line " + inBlock + " of the block)"
            : b.page() + ":" + b.line() + " (in the declarations of its comment)") + ": " + m.group(4));
      }
    }
    if (p.exitValue() != 0 && errors.isEmpty()) {
      errors.add("scalac failed: " + Files.readString(log, StandardCharsets.UTF_8));
    }
    return errors;
  }

}
