package io.joblib4j.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The root build's check for merge-conflict markers trips: the real root pom, copied beside a file
 * with markers and one with look-alikes, fails its validate phase naming the first file only. (This
 * build passing is the check's other half: the repository has no markers.)
 */
class ConflictMarkerCheckIT {

  @Test
  void theRootBuildFailsNamingEachFileWithConflictMarkersAndOnlyThose() throws Exception {
    Path dir = Release.freshFolder("conflict-markers");
    Files.copy(Release.root().resolve("pom.xml"), dir.resolve("pom.xml"));
    Files.createDirectories(dir.resolve(".mvn"));
    Files.createDirectories(dir.resolve("docs"));
    Files.createDirectories(dir.resolve("src"));
    // built here, so that this file holds no marker lines itself
    String ours = "<".repeat(7);
    String theirs = ">".repeat(7);
    Files.writeString(dir.resolve("docs/Merged.md"), String.join("\n", "# Notes", ours + " HEAD",
        "the branch's text", "=".repeat(7), "main's text", theirs + " persist", ""));
    Files.writeString(dir.resolve("src/LookAlike.java"), String.join("\n", "/**", " * Title",
        " * " + ours + " not at the start of the line", " */", "class LookAlike {}", "=".repeat(7),
        ours + "<", ""));

    Release.Outcome validate = Release.run(List.of(Release.mvn(), "-B", "-ntp", "-o", "-N", "validate",
        "-Dmaven.repo.local=" + Release.property("release.userRepository")), dir,
        Map.of("JAVA_HOME", System.getProperty("java.home"), "MAVEN_OPTS", "-Xmx256m -XX:+UseSerialGC"),
        dir.resolve("..").resolve("conflict-markers.log"), 5);

    assertThat(validate.exitCode()).as("validate must fail:\n" + validate.tail()).isNotZero();
    assertThat(validate.output()).as(validate.tail()).contains("Merge-conflict markers")
        .contains(dir.resolve("docs/Merged.md").toString())
        .contains("Finish resolving the merge in each file")
        .doesNotContain("LookAlike.java");
  }
}
