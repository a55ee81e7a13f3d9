package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** loky's test_sigkill_shutdown_leaks_workers: a parent killed -9 leaves no worker and, after a sweep, no file. */
class ParentDeathIT {

  @Test
  @Timeout(90)
  void workersOfAParentKilledMinus9ExitAndItsFilesAreSweptByTheNextJvm() throws Exception {
    Process parent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), OrphanParentMain.class.getName())
        .redirectErrorStream(true).start();
    List<Long> workers = new ArrayList<>();
    Path folder = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((workers.size() < 2 || folder == null) && (line = out.readLine()) != null) {
        if (line.startsWith("WORKER ")) {
          workers.add(Long.parseLong(line.substring(7).trim()));
        } else if (line.startsWith("FOLDER ")) {
          folder = Path.of(line.substring(7).trim());
        }
      }
      assertThat(workers).as("both workers are busy").hasSize(2);
      assertThat(folder).as("the shared array's folder").isNotNull();
      assertThat(Files.list(folder)).isNotEmpty();

      parent.destroyForcibly(); // SIGKILL: no shutdown hook runs in the parent
      assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
      for (long pid : workers) {
        assertThat(Workers.awaitExit(pid, Duration.ofSeconds(5))).as("busy worker %d exits with its parent", pid).isTrue();
      }
    } finally {
      parent.destroyForcibly();
    }
    assertThat(folder).as("nobody cleaned up after a SIGKILL").exists();
    assertThat(TempFolders.sweep(folder.getParent())).isPositive();
    assertThat(folder).as("the next JVM's sweep removes it").doesNotExist();
  }

  @Test
  @Timeout(90)
  void aProgramShorterThanTheSweepDelaySweepsAtItsExit(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    Process gone = new ProcessBuilder("true").start();
    long started = gone.toHandle().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(1L);
    gone.waitFor();
    Path dead = Files.createDirectory(tmp.resolve("joblib4j-" + gone.pid() + "-" + started + "-scratch"), OWNER_ONLY);
    Files.writeString(dead.resolve("w-1.args"), "left over");

    Process program = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-Djoblib4j.processes.sweepDelayMillis=600000", "-cp", System.getProperty("java.class.path"), ShortCallMain.class.getName())
        .redirectErrorStream(true).start();
    String out = new String(program.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(program.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("RESULT [42]");
    assertThat(dead).as("swept by the program's exit, before the timer's turn").doesNotExist();
  }

  @Test
  void theSweepKeepsTheFoldersOfRunningJvms(@org.junit.jupiter.api.io.TempDir Path base) throws Exception {
    Path mine = TempFolders.create(base, "call-test");
    Process p = new ProcessBuilder("true").start();
    long deadPid = p.pid();
    long started = p.toHandle().info().startInstant().map(java.time.Instant::toEpochMilli).orElse(1L);
    p.waitFor();
    Path dead = Files.createDirectory(base.resolve("joblib4j-" + deadPid + "-" + started + "-call-x"), OWNER_ONLY);
    Files.writeString(dead.resolve("a0.bin"), "left over");
    Path recycled = Files.createDirectory(base.resolve("joblib4j-" + Workers.pid() + "-12345-call-y"), OWNER_ONLY);
    Path foreign = Files.createDirectory(base.resolve("someone-else"));

    assertThat(TempFolders.sweep(base)).isEqualTo(2);
    assertThat(mine).exists();
    assertThat(foreign).exists();
    assertThat(dead).doesNotExist();
    assertThat(recycled).as("same pid, other start time: a recycled pid").doesNotExist();
  }

  @Test
  void theSweepLeavesFoldersOthersMayChangeAndLinks(@org.junit.jupiter.api.io.TempDir Path base) throws Exception {
    // a dead JVM's name proves nothing in a folder every user may write to: another user's folder
    // of that name could have a subfolder swapped for a link to this user's files mid-walk
    Path open = Files.createDirectory(base.resolve("joblib4j-1-1-call-open"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx")); // past the umask
    Files.writeString(open.resolve("a0.bin"), "not ours to judge");
    Path precious = Files.createDirectory(base.resolve("precious"), OWNER_ONLY);
    Files.writeString(precious.resolve("keep.txt"), "keep");
    Path link = Files.createSymbolicLink(base.resolve("joblib4j-1-1-call-link"), precious);

    assertThat(TempFolders.sweep(base)).isZero();
    assertThat(open.resolve("a0.bin")).exists();
    assertThat(link).exists();
    assertThat(precious.resolve("keep.txt")).hasContent("keep");
  }

  private static final java.nio.file.attribute.FileAttribute<?> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(io.joblib4j.spi.support.OwnerOnlyFolders.OWNER_ONLY);
}
