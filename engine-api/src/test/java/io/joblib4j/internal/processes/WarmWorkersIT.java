package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers kept warm across programs ({@code keepWarm}): each program is a fresh JVM with a temp
 * folder of its own (so a folder of parked workers of its own), on a class path of jars.
 */
@Timeout(180)
class WarmWorkersIT {
  @TempDir Path dir;
  private List<String> classpath;
  private final List<Long> seen = new ArrayList<>();

  @BeforeEach
  void jars() throws IOException {
    classpath = TestClassPaths.jarsWith(dir.resolve("warm-test.jar"), WarmParentMain.class);
  }

  /**
   * Every JVM this test started ends before its folder is deleted: the workers it saw, and any other
   * whose command line names the folder (a worker still starting when its program ended parks itself
   * later, into this folder, and would race the folder's deletion).
   */
  @AfterEach
  void killParked() throws Exception {
    String folder = dir.toString();
    List<ProcessHandle> ours = new ArrayList<>();
    seen.forEach(pid -> ProcessHandle.of(pid).ifPresent(ours::add));
    ProcessHandle.allProcesses().filter(h -> h.pid() != ProcessHandle.current().pid())
        .filter(h -> h.info().commandLine().map(c -> c.contains(folder)).orElse(false)).forEach(ours::add);
    ours.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle h : ours) {
      h.onExit().get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void theNextProgramAdoptsTheParkedWorkersAndTheirTasksPrintThroughIt() throws Exception {
    List<Long> first = pids(run("A", 60, "m", 3000));
    assertThat(sockets()).as("both idle workers parked at exit").hasSize(2);

    String out = run("B", 60, "m", 3000);
    List<Long> second = pids(out);
    assertThat(second).as("the second program's tasks ran on the first's workers").containsAnyElementsOf(first);
    long adopted = second.stream().filter(first::contains).findFirst().orElseThrow();
    assertThat(out).as("what an adopted worker's task prints reaches the program that adopted it")
        .contains("TASK B " + adopted);
  }

  @Test
  void onAFolderClassPathAParkedWorkerServesWhileItsClassesAreTheFoldersAndLeavesAtAChange() throws Exception {
    Path classes = dir.resolve("classes");
    classpath = TestClassPaths.folderWith(classes, WarmParentMain.class);
    List<Long> first = pids(run("A", 60, "m", 3000));
    assertThat(pids(run("B", 60, "m", 3000))).as("unchanged classes: adopted").containsAnyElementsOf(first);
    List<Path> parked = sockets();
    assertThat(parked).hasSize(2);

    Path main = classes.resolve(WarmParentMain.class.getName().replace('.', '/') + ".class");
    Files.write(main, Files.readAllBytes(main)); // compiled again, as an IDE does: same path, new time
    for (Path s : parked) {
      long pid = pidOf(s);
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).as("parked worker %d leaves at the change", pid)
          .isTrue();
    }
    assertThat(sockets()).isEmpty();
    assertThat(pids(run("C", 60, "m", 0))).as("new workers for the new classes")
        .doesNotContainAnyElementsOf(parked.stream().map(WarmWorkersIT::pidOf).toList());
  }

  @Test
  void onAFolderClassPathAWorkerWhoseClassesChangedWhileAdoptedDoesNotParkAgain() throws Exception {
    Path classes = dir.resolve("classes");
    classpath = TestClassPaths.folderWith(classes, WarmParentMain.class);
    List<Long> first = pids(run("A", 60, "m", 3000));
    // the parked workers watch their folder from their first park on, not only while parked
    Process b = start("B", 60, "m", 0, "2", "2", "2000");
    StringBuilder out = new StringBuilder();
    java.io.BufferedReader lines = new java.io.BufferedReader(
        new java.io.InputStreamReader(b.getInputStream(), StandardCharsets.UTF_8));
    for (String line; (line = lines.readLine()) != null; ) {
      out.append(line).append('\n');
      if (line.startsWith("TASK B")) {
        Path main = classes.resolve(WarmParentMain.class.getName().replace('.', '/') + ".class");
        // compiled again while the adopted workers run B's tasks: written beside and moved into place,
        // as a build that replaces its outputs does. Written in place, a worker loading the class at
        // that moment reads a truncated file (the JVM's race with any writer, not the guard's)
        Path fresh = main.resolveSibling(main.getFileName() + ".new");
        Files.write(fresh, Files.readAllBytes(main));
        Files.move(fresh, main, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        break;
      }
    }
    out.append(new String(b.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    assertThat(b.waitFor(120, TimeUnit.SECONDS)).isTrue();
    List<Long> second = pids(out.toString());
    assertThat(second).as("B adopted A's workers").containsAnyElementsOf(first);
    for (long pid : second) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10)))
          .as("worker %d, whose classes changed while it was adopted, leaves instead of parking", pid).isTrue();
    }
    assertThat(sockets()).isEmpty();
  }

  @Test
  void aProgramStartedOtherwiseStartsItsOwnWorkers() throws Exception {
    List<Long> first = pids(run("A", 60, "one", 3000));
    List<Long> other = pids(run("C", 60, "two", 3000));
    assertThat(other).as("another environment is another key").doesNotContainAnyElementsOf(first);
    assertThat(sockets()).as("both programs' workers wait, each for its own kind").hasSize(4);
  }

  @Test
  void parkedWorkersNobodyAdoptsExitAfterKeepWarm() throws Exception {
    List<Long> workers = pids(run("A", 2, "m", 3000));
    for (long pid : workers) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(20))).as("parked worker %d exits", pid).isTrue();
    }
    assertThat(sockets()).as("and deletes its socket").isEmpty();
  }

  @Test
  void aParkedWorkerTurnsAwayAWrongKeyAndStaysAdoptable() throws Exception {
    List<Long> first = pids(run("A", 60, "m", 3000));
    Path socket = sockets().get(0);
    try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      ch.write(java.nio.ByteBuffer.wrap(new WarmWorkers.Adopt("k-not-its-key", 1, dir.toString(), new byte[32]).encode()));
      DataInputStream in = new DataInputStream(Channels.newInputStream(ch));
      assertThat(in.read()).as("dropped without a HELLO").isEqualTo(-1);
    }
    assertThat(socket).as("still waiting").exists();
    assertThat(pids(run("B", 60, "m", 3000))).containsAnyElementsOf(first);
  }

  @Test
  void theSocketOfAParkedWorkerKilledMinus9IsDeletedByTheNextProgram() throws Exception {
    pids(run("A", 60, "m", 3000));
    List<Path> parked = sockets();
    assertThat(parked).hasSize(2);
    for (Path s : parked) {
      long pid = pidOf(s);
      ProcessHandle.of(pid).orElseThrow().destroyForcibly();
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).isTrue();
    }
    List<Long> next = pids(run("B", 60, "m", 0));
    assertThat(next).as("new workers").isNotEmpty().doesNotContainAnyElementsOf(parked.stream().map(WarmWorkersIT::pidOf).toList());
    for (Path s : parked) {
      assertThat(s).as("a dead worker's socket is deleted").doesNotExist();
    }
  }

  @Test
  void withoutKeepWarmWorkersEndWithTheProgram() throws Exception {
    List<Long> workers = pids(run("A", 0, "m", 3000));
    for (long pid : workers) {
      assertThat(Workers.awaitExit(pid, Duration.ofSeconds(10))).as("worker %d ends with its program", pid).isTrue();
    }
    assertThat(sockets()).isEmpty();
  }

  @Test
  void workersStillStartingWhenTheirProgramEndsParkThemselves() throws Exception {
    // one task for four workers: the call is done when the first connects, the others are starting
    run("A", 60, "m", 0, "4", "1", "0");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (sockets().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    sockets().forEach(s -> seen.add(pidOf(s)));
    assertThat(sockets()).as("the workers that were starting found no program, and parked").hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void aProgramKilledMinus9LeavesItsIdleWorkersParkedAndItsBusyOneExits() throws Exception {
    Process parent = start("A", 60, "m", 0, "2", "1", "-1"); // one task that never ends, on one of two workers
    long busy;
    try (java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("TASK ")) {
        // the program's start
      }
      assertThat(line).isNotNull();
      busy = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1).trim());
      seen.add(busy);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (ProcessHandle.current().descendants().filter(h -> h.parent().map(x -> x.pid() == parent.pid()).orElse(false))
          .count() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50); // the idle worker connected too
      }
      Thread.sleep(500);
      parent.destroyForcibly(); // SIGKILL: no shutdown hook, no PARK
      assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(Workers.awaitExit(busy, Duration.ofSeconds(10))).as("the busy worker %d exits", busy).isTrue();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (sockets().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    List<Path> parked = sockets();
    parked.forEach(s -> seen.add(pidOf(s)));
    assertThat(parked).as("the idle worker parked").hasSize(1);
    assertThat(pidOf(parked.get(0))).isNotEqualTo(busy);
    assertThat(pids(run("B", 60, "m", 0))).as("and the next program adopts it").contains(pidOf(parked.get(0)));
  }

  private String run(String label, int keepSeconds, String mark, int lingerMillis, String... more) throws Exception {
    Process p = start(label, keepSeconds, mark, lingerMillis, more);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(out).as(out).contains("DONE");
    return out;
  }

  private Process start(String label, int keepSeconds, String mark, int lingerMillis, String... more)
      throws IOException {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // no class-data-sharing recording: a recording worker exits to write its archive, instead of parking
        "-Djava.io.tmpdir=" + tmp, "-Djoblib4j.processes.cds=false", "-cp", String.join(java.io.File.pathSeparator, classpath),
        WarmParentMain.class.getName(), label, Integer.toString(keepSeconds), mark, Integer.toString(lingerMillis)));
    command.addAll(Arrays.asList(more));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private List<Long> pids(String out) {
    for (String line : out.split("\n")) {
      if (line.startsWith("PIDS ")) {
        List<Long> pids = Arrays.stream(line.substring(5).trim().split(" ")).map(Long::parseLong).toList();
        seen.addAll(pids);
        return pids;
      }
    }
    throw new AssertionError("no PIDS in:\n" + out);
  }

  private List<Path> sockets() throws IOException {
    Path tmp = dir.resolve("tmp");
    try (Stream<Path> s = Files.list(tmp)) {
      List<Path> folders = s.filter(f -> f.getFileName().toString().startsWith("joblib4j-warm-")).toList();
      List<Path> out = new ArrayList<>();
      for (Path f : folders) {
        try (Stream<Path> in = Files.list(f)) {
          in.filter(x -> x.toString().endsWith(".sock")).forEach(out::add);
        }
      }
      return out;
    }
  }

  private static long pidOf(Path socket) {
    String n = socket.getFileName().toString();
    return Long.parseLong(n.substring(n.lastIndexOf('-') + 1, n.length() - ".sock".length()));
  }
}
