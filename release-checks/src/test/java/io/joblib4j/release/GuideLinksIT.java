package io.joblib4j.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link of the user guide resolves: in README.md and every {@code docs/*.md}, a relative link
 * names a file or folder of the repository, and a {@code #anchor} (alone, or after a Markdown file)
 * names a heading of that file as GitHub makes its anchors. Links to other sites are not followed
 * (the build stays offline). Text inside code blocks and code spans is not a link.
 */
class GuideLinksIT {
  private static final Pattern LINK = Pattern.compile("\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

  @Test
  void everyLinkOfTheReadmeAndTheGuideResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path page : guidePages(Release.root())) {
      broken.addAll(brokenLinks(Release.root(), page));
    }
    assertThat(broken).as("links that do not resolve (file: link -> why)").isEmpty();
  }

  @Test
  void anchorsAreMadeAsGitHubMakesThem() {
    assertThat(anchors("# A\n## joblib → joblib4j\n## Spark Connect: what differs\n## `ls` and `du`\n"
        + "```\n# not a heading\n```\n## Spark Connect: what differs\n"))
        .containsExactly("a", "joblib--joblib4j", "spark-connect-what-differs", "ls-and-du",
            "spark-connect-what-differs-1");
  }

  @Test
  void aMissingFileAndAMissingAnchorAreReported(@org.junit.jupiter.api.io.TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("docs"));
    Files.writeString(root.resolve("README.md"), "# R\n## Use it\n[ok](docs/a.md#two) [self](#use-it) "
        + "`[code](nowhere.md)` [web](https://example.com/x)\n```\n[fenced](nowhere.md)\n```\n");
    Files.writeString(root.resolve("docs/a.md"), "# A\n## Two\n[gone](b.md) [bad](../README.md#nope) [up](../README.md)\n");
    List<String> broken = new ArrayList<>();
    for (Path page : guidePages(root)) {
      broken.addAll(brokenLinks(root, page));
    }
    assertThat(broken).containsExactlyInAnyOrder("docs/a.md: b.md -> no such file",
        "docs/a.md: ../README.md#nope -> no heading with that anchor");
  }

  /** README.md and every Markdown file under docs/. */
  static List<Path> guidePages(Path root) throws IOException {
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  static List<String> brokenLinks(Path root, Path page) throws IOException {
    List<String> broken = new ArrayList<>();
    String name = root.relativize(page).toString().replace('\\', '/');
    for (String target : links(Files.readString(page, StandardCharsets.UTF_8))) {
      if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
        continue;  // https:, mailto: ...: another site
      }
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
      if (!resolved.startsWith(root) || !Files.exists(resolved)) {
        broken.add(name + ": " + target + " -> no such file");
      } else if (hash >= 0) {
        if (!resolved.toString().endsWith(".md")) {
          broken.add(name + ": " + target + " -> an anchor into a file that is not Markdown");
        } else if (!anchors(Files.readString(resolved, StandardCharsets.UTF_8)).contains(target.substring(hash + 1))) {
          broken.add(name + ": " + target + " -> no heading with that anchor");
        }
      }
    }
    return broken;
  }

  /** The targets of the inline links of {@code markdown}, outside code blocks and code spans. */
  static List<String> links(String markdown) {
    List<String> targets = new ArrayList<>();
    for (String line : proseLines(markdown)) {
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
      while (m.find()) {
        targets.add(m.group(1));
      }
    }
    return targets;
  }

  /** The anchors GitHub gives the headings of {@code markdown}, in order. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : proseLines(markdown)) {
      Matcher heading = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
      if (heading.matches()) {
        String slug = heading.group(1).toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{N}\\p{Mn}\\p{Pc} -]", "").replace(' ', '-');
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
    }
    return anchors;
  }

  /** The lines of {@code markdown} that are not inside fenced code blocks. */
  private static List<String> proseLines(String markdown) {
    List<String> prose = new ArrayList<>();
    String fence = null;
    for (String line : markdown.split("\n", -1)) {
      String trimmed = line.strip();
      if (fence == null && (trimmed.startsWith("```") || trimmed.startsWith("~~~"))) {
        fence = trimmed.substring(0, 3);
      } else if (fence != null && trimmed.startsWith(fence)) {
        fence = null;
      } else if (fence == null) {
        prose.add(line);
      }
    }
    return prose;
  }
}
