package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsDigestTest {

  @Test
  void itemBoundariesCount() {
    assertThat(new SettingsDigest().add("ab").add("c").hex())
        .isNotEqualTo(new SettingsDigest().add("a").add("bc").hex())
        .isNotEqualTo(new SettingsDigest().add("abc").hex());
    assertThat(new SettingsDigest().add("").hex()).isNotEqualTo(new SettingsDigest().hex());
  }

  @Test
  void isTwentyFourHexDigitsAndTheSameInEveryJvm() {
    // archives and parked workers of earlier runs are found by this name: it must not drift
    assertThat(new SettingsDigest().add("joblib4j").hex()).isEqualTo("1fbd05b016ebe4cf02140ac3")
        .matches("[0-9a-f]{24}");
  }

  @Test
  void aJarRewrittenOrTouchedGetsAnotherDigest(@TempDir Path dir) throws Exception {
    Path jar = Files.write(dir.resolve("app.jar"), new byte[] {1, 2, 3});
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_000_000L));
    String first = new SettingsDigest().addJar(jar).hex();
    assertThat(new SettingsDigest().addJar(jar).hex()).isEqualTo(first);

    Files.write(jar, new byte[] {1, 2, 3, 4});
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_000_000L));
    String resized = new SettingsDigest().addJar(jar).hex();
    Files.setLastModifiedTime(jar, FileTime.fromMillis(1_700_000_001_000L));
    String touched = new SettingsDigest().addJar(jar).hex();
    assertThat(Set.of(first, resized, touched)).hasSize(3);
  }

  @Test
  void manySimilarSettingsDoNotCollide() {
    // class paths and environments differ in a character or a digit: 200,000 near neighbours
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 200_000; i++) {
      seen.add(new SettingsDigest().add("/opt/app/lib/dep-" + i + ".jar:" + (i % 977) + ":1700000000000")
          .add("PATH=/usr/bin").hex());
    }
    assertThat(seen).hasSize(200_000);
  }
}
