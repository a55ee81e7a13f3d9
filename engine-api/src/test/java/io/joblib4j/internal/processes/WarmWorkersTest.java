package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmWorkersTest {
  @TempDir Path dir;

  @Test
  void refusesAFolderOtherUsersMayEnter() throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThat(WarmWorkers.findFolder(open)).isEmpty();
  }

  @Test
  void makesAFolderOnlyThisUserMayEnter() throws IOException {
    Path made = WarmWorkers.findFolder(dir.resolve("warm")).orElseThrow();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(made))).isEqualTo("rwx------");
    assertThat(WarmWorkers.findFolder(made)).as("and takes it again").contains(made);
  }

  @Test
  void refusesASymbolicLinkForTheFolder() throws IOException {
    Path real = WarmWorkers.findFolder(dir.resolve("real")).orElseThrow();
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    assertThat(WarmWorkers.findFolder(link)).isEmpty();
  }

  @Test
  void anAdoptMessageReadsBackAsWritten() throws IOException {
    byte[] token = new byte[32];
    token[5] = 7;
    WarmWorkers.Adopt a = new WarmWorkers.Adopt("k-abc", 42, "/some/results", token);
    WarmWorkers.Adopt back = WarmWorkers.Adopt.read(new ByteArrayInputStream(a.encode()));
    assertThat(back.key()).isEqualTo("k-abc");
    assertThat(back.parentPid()).isEqualTo(42);
    assertThat(back.resultsDir()).isEqualTo("/some/results");
    assertThat(back.token()).isEqualTo(token);
  }

  @Test
  void anythingElseIsNotAnAdoptMessage() {
    assertThatThrownBy(() -> WarmWorkers.Adopt.read(new ByteArrayInputStream("GET / HTTP/1.1\r\n\r\n".getBytes())))
        .isInstanceOf(StreamCorruptedException.class);
    byte[] huge = ByteBuffer.allocate(8).putInt(WarmWorkers.ADOPT_MAGIC).putInt(Integer.MAX_VALUE).array();
    assertThatThrownBy(() -> WarmWorkers.Adopt.read(new ByteArrayInputStream(huge)))
        .as("a length past the limit is not believed").isInstanceOf(StreamCorruptedException.class);
    assertThatThrownBy(() -> WarmWorkers.Note.decode("just-a-key".getBytes()))
        .isInstanceOf(StreamCorruptedException.class);
  }

  @Test
  void workersOfOtherSettingsParkUnderOtherKeys() throws IOException {
    Path jar = dir.resolve("app.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), new Manifest())) {
      // empty: only its path, size and time count
    }
    LaunchSpec spec = new LaunchSpec("java", List.of(jar.toString()), List.of("-Xss2m"), Map.of("A", "1"));
    PoolKey key = new PoolKey(spec, 2, Duration.ofSeconds(300), Duration.ofSeconds(60), Duration.ofSeconds(30));
    String k = WarmWorkers.key(key);
    assertThat(k).startsWith("k-");
    assertThat(WarmWorkers.key(new PoolKey(spec, 2, Duration.ofSeconds(300), Duration.ofSeconds(60),
        Duration.ofSeconds(30)))).isEqualTo(k);
    assertThat(WarmWorkers.key(new PoolKey(new LaunchSpec("java", List.of(jar.toString()), List.of("-Xss2m"),
        Map.of("A", "2")), 2, Duration.ofSeconds(300), Duration.ofSeconds(60), Duration.ofSeconds(30))))
        .as("environment").isNotEqualTo(k);
    assertThat(WarmWorkers.key(new PoolKey(new LaunchSpec("java", List.of(jar.toString()), List.of("-Xss4m"),
        Map.of("A", "1")), 2, Duration.ofSeconds(300), Duration.ofSeconds(60), Duration.ofSeconds(30))))
        .as("JVM options").isNotEqualTo(k);
    assertThat(WarmWorkers.key(new PoolKey(spec, 3, Duration.ofSeconds(300), Duration.ofSeconds(60),
        Duration.ofSeconds(30)))).as("thread budget").isNotEqualTo(k);
  }

  @Test
  void aFolderOfClassesIsKeyedByItsPathWithoutAWalk() throws IOException {
    Path classes = Files.createDirectories(dir.resolve("classes/app"));
    Path a = Files.writeString(classes.resolve("A.class"), "one");
    // keys are computed once per class path and JVM: the same folder spelt another way asks afresh
    String before = WarmWorkers.key(folderKey(dir.resolve("classes").toString()));
    assertThat(before).startsWith("k-");
    Files.writeString(a, "ONE");
    assertThat(WarmWorkers.key(folderKey(dir.resolve("classes") + "/")))
        .as("a class compiled again is the parked worker's to notice (FolderGuard), not the key's").isEqualTo(before);
    assertThat(WarmWorkers.key(folderKey(Files.createDirectories(dir.resolve("other")).toString())))
        .as("another folder").isNotEqualTo(before);
  }

  private static PoolKey folderKey(String folder) {
    return new PoolKey(new LaunchSpec("java", List.of(folder), List.of(), Map.of()), 2, Duration.ofSeconds(300),
        Duration.ofSeconds(60), Duration.ofSeconds(30));
  }

  @Test
  void keepWarmIsZeroOrPositive() {
    assertThat(ProcessesOptions.parse(Map.of()).keepWarm()).isZero();
    assertThat(ProcessesOptions.parse(Map.of("keepWarm", "90")).keepWarm()).isEqualTo(Duration.ofSeconds(90));
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("keepWarm", Duration.ofSeconds(-1))))
        .hasMessageContaining("keepWarm must be zero");
    assertThatThrownBy(() -> ProcessesOptions.parse(Map.of("keepWarm", "a while")))
        .hasMessageContaining("keepWarm must be a Duration");
  }
}
