package io.joblib4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A local cache part of which this user may not read (issue 37, defect 3): {@code verify} says
 * "permission denied" with the path and exits 3, and {@code --repair} never deletes what it could not
 * read. File modes mean nothing to root, so as root the command runs as {@code nobody} through
 * {@code setpriv} (util-linux), from a copy of the jar in a folder that user may read; without
 * either, the test says so loudly and is skipped.
 */
class UnreadableLocalCacheIT {
  private static final Set<PosixFilePermission> OPEN = PosixFilePermissions.fromString("rwxrwxrwx");
  private Path dir;
  private List<String> asAnotherUser;

  @BeforeEach
  void anotherUser() throws IOException {
    dir = Files.createTempDirectory("joblib4j-unreadable");
    Files.setPosixFilePermissions(dir, OPEN);
    Path jar = Files.copy(Path.of(System.getProperty("joblib4j.it.cliJar")), dir.resolve("joblib4j-cli.jar"));
    Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    boolean root = "root".equals(System.getProperty("user.name"));
    Path setpriv = Path.of("/usr/bin/setpriv");
    if (root && !Files.isExecutable(setpriv)) {
      System.err.println("UnreadableLocalCacheIT: SKIPPED LOUDLY: running as root without setpriv(1), so no other user"
          + " can be had and file modes do not apply; the permission checks were NOT run");
      Assumptions.abort("needs setpriv to run as another user");
    }
    asAnotherUser = new ArrayList<>(root
        ? List.of(setpriv.toString(), "--reuid=65534", "--regid=65534", "--clear-groups", java)
        : List.of(java));
    asAnotherUser.addAll(List.of("-Xmx256m", "-Duser.home=" + dir, "-jar", jar.toString()));
  }

  @AfterEach
  void cleanUp() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        Files.setPosixFilePermissions(p, OPEN);
      }
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** {@link Caches#fill}'s 7 entries, every folder and file open to everyone. */
  private Path cache() throws IOException {
    Path cache = dir.resolve("cache");
    Caches.fill(Caches.at(cache));
    try (Stream<Path> s = Files.walk(cache)) {
      for (Path p : s.toList()) {
        Files.setPosixFilePermissions(p, OPEN);
      }
    }
    return cache;
  }

  private static Path functionFolder(Path cache, String function) throws IOException {
    try (Stream<Path> s = Files.list(cache)) {
      // a function's folder is named by its class's full name: io.joblib4j.cli.Fns.square-<12 hex digits>
      return s.filter(p -> p.getFileName().toString().contains("." + function + "-")).findFirst().orElseThrow();
    }
  }

  @Test
  void verifySaysPermissionDeniedForAFolderItCannotReadAndExits3() throws Exception {
    Path cache = cache();
    Path hidden = functionFolder(cache, "Fns.square");
    Files.setPosixFilePermissions(hidden, Set.of());

    CommandLineIT.Child verify = run("verify", cache.toString());

    assertThat(verify.code()).as(verify.toString()).isEqualTo(Main.UNREACHABLE);
    assertThat(verify.err()).contains(hidden.getFileName().toString()).contains("permission denied");
    assertThat(verify.err()).doesNotContain("no problem found");
  }

  @Test
  void verifyRepairNeverDeletesAnEntryItCouldNotRead() throws Exception {
    Path cache = cache();
    Path output;
    try (Stream<Path> s = Files.walk(functionFolder(cache, "Fns.greet"))) {
      output = s.filter(p -> p.getFileName().toString().equals("output.jl4j")).findFirst().orElseThrow();
    }
    byte[] before = Files.readAllBytes(output);
    Files.setPosixFilePermissions(output, PosixFilePermissions.fromString("rw-------"));

    CommandLineIT.Child repair = run("verify", cache.toString(), "--repair");

    assertThat(repair.code()).as(repair.toString()).isEqualTo(Main.UNREACHABLE);
    assertThat(repair.out()).contains("unreadable").contains(output.getParent().getFileName().toString())
        .contains("permission denied");
    assertThat(repair.err()).contains("could not be read");
    assertThat(output).exists();
    assertThat(Files.readAllBytes(output)).isEqualTo(before);
  }

  private CommandLineIT.Child run(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(asAnotherUser);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("joblib4j-out", ".txt");
    Path err = Files.createTempFile("joblib4j-err", ".txt");
    try {
      Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(String.join(" ", cmd) + " ended").isTrue();
      return new CommandLineIT.Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
