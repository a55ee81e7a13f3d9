package io.joblib4j.internal.processes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Workers record a class-data-sharing archive once and start from it afterwards (WorkerCds). */
class WorkerCdsIT {
  @TempDir Path dir;

  @Test
  @Timeout(180)
  void aShortProgramsOnlyCallLeavesTheArchiveAndLaterWorkersStartFromIt() throws Exception {
    List<String> cp = jarClasspath();
    Path cache = Files.createDirectories(dir.resolve("tmp").resolve("joblib4j-cds-"
        + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_")),
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(io.joblib4j.spi.support.OwnerOnlyFolders.OWNER_ONLY));
    Path stale = Files.writeString(cache.resolve("w-0123456789ab-1-1.tmp"), "half a recording");
    Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    // one call, then the JVM exits at once: the worker records once warm, not at its own exit
    assertThat(run(cp, "exit")).contains("-XX:+RecordDynamicDumpInfo").doesNotContain("[cds");
    awaitArchive(() -> run(cp, "exit"));
    assertThat(stale).as("an old recording is swept").doesNotExist();
    String second = run(cp, "exit");
    assertThat(second).contains("-XX:SharedArchiveFile=" + archives().get(0)).doesNotContain("[cds");
    long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!leftovers().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(50); // the lock goes just after the archive
    }
    assertThat(leftovers()).as("no lock or recording left").isEmpty();
  }

  @Test
  @Timeout(180)
  void anArchiveFolderOtherUsersMayEnterIsNeitherWrittenNorRead() throws Exception {
    // the folder's name is predictable: another local user could make it first and leave an archive
    // or a class folder's jar there, which workers would then run as this user
    Path cache = Files.createDirectories(dir.resolve("tmp").resolve("joblib4j-cds-"
        + System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_")));
    Files.setPosixFilePermissions(cache, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    List<String> cp = jarClasspath();
    String out = run(cp, "exit");
    assertThat(out).as(out).doesNotContain("RecordDynamicDumpInfo").doesNotContain("SharedArchiveFile");
    Thread.sleep(1_000); // a recording worker would publish just after its parent exits
    assertThat(cacheFiles("glob:**")).as("nothing written there").isEmpty();
  }

  @Test
  @Timeout(180)
  void theRecordingWorkersDumpNeverPausesARunningTask() throws Exception {
    // the dump stops the worker's JVM at a safepoint: inside a task it would count against the
    // task's timeout (a 300 ms task "ran longer than 1.5 s" on a loaded machine): the recording
    // worker's second task, started just after its first, sees the archive appear before it
    // starts or after it ends, never while it runs
    String out = run(jarClasspath(), "during");
    assertThat(out).contains("-XX:+RecordDynamicDumpInfo").containsPattern("ARCHIVE before=(true|false) after=");
    assertThat(out).as(out).doesNotContain("before=false after=true");
  }

  @Test
  @Timeout(240)
  void aMethodQueuedForCompilationAsTheArchiveIsDumpedIsStillCompiledInLaterWorkers() throws Exception {
    // Java 17 archives a method queued for compilation with its "queued" flag set (JDK-8306460,
    // fixed in 21): every JVM started from that archive then runs it interpreted, forever (a 400 MB
    // digest took 5 s instead of 40 ms). The recording worker here exits with its compilers busy.
    List<String> cp = jarClasspath();
    assertThat(run(cp, "busy")).contains("-XX:+RecordDynamicDumpInfo");
    awaitArchive(() -> run(cp, "busy"));
    String out = run(cp, "compiled");
    assertThat(out).contains("-XX:SharedArchiveFile=");
    assertThat(out).as(out).contains("COMPILED " + HotMethods.COUNT + " of " + HotMethods.COUNT);
  }

  @Test
  @Timeout(180)
  void aFolderClassPathStartsTheFirstWorkersAtOnceAndLaterOnesFromAJarWithTheArchive() throws Exception {
    List<String> cp = jarClasspath();
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path testJar = Path.of(cp.remove(0)); // the jar of the test class: here a folder instead
    try (JarFile jf = new JarFile(testJar.toFile())) {
      for (var e : java.util.Collections.list(jf.entries())) {
        Path f = classes.resolve(e.getName());
        Files.createDirectories(f.getParent());
        try (var in = jf.getInputStream(e)) {
          Files.copy(in, f);
        }
      }
    }
    cp.add(0, classes.toString());
    // the first worker does not wait for the folder's walk: it starts from the folder, without an archive
    String first = run(cp, "later");
    assertThat(line(first, "WORKER_OPTIONS")).doesNotContain("-XX:+RecordDynamicDumpInfo");
    assertThat(classPath(first, "WORKER_OPTIONS")).contains(classes.toString());
    // workers started once the folder is jarred (in the background) run from the jar; one records the archive
    assertThat(classPath(first, "LATER_WORKER_OPTIONS")).contains("cp-").doesNotContain(classes.toString());
    awaitArchive(() -> run(cp, "later"));
    String second = run(cp, "later");
    assertThat(classPath(second, "WORKER_OPTIONS")).contains(classes.toString());
    assertThat(line(second, "LATER_WORKER_OPTIONS")).contains("-XX:SharedArchiveFile=");
    assertThat(classPath(second, "LATER_WORKER_OPTIONS")).contains("cp-").doesNotContain(classes.toString());
  }

  private static String classPath(String out, String prefix) {
    String l = line(out, prefix);
    return l.substring(l.indexOf(" WORKER_CP ") + 11);
  }

  private static String line(String out, String prefix) {
    return out.lines().filter(l -> l.startsWith(prefix + " ")).findFirst()
        .orElseThrow(() -> new AssertionError("no " + prefix + " in:\n" + out));
  }

  @Test
  void aFoldersJarIsNamedForItsContent(@TempDir Path cache) throws IOException, InterruptedException {
    Path classes = Files.createDirectories(dir.resolve("classes/a"));
    Files.writeString(classes.resolve("X.class"), "x");
    Path folder = dir.resolve("classes");
    assertThat(FolderJars.jarred(List.of(folder.toString()), cache)).as("no waiting for a walk: the folder as it is")
        .containsExactly(folder.toString());
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (FolderJars.known(folder) == null && System.nanoTime() < until) {
      Thread.sleep(20); // jarred in the background, a little later
    }
    List<String> first = FolderJars.jarred(List.of(folder.toString()), cache);
    assertThat(first.get(0)).endsWith(".jar");
    try (JarFile jf = new JarFile(first.get(0))) {
      assertThat(jf.getEntry("a/X.class")).isNotNull();
    }
    assertThat(FolderJars.jarred(List.of(dir.resolve("classes").toString()), cache)).isEqualTo(first);
    assertThat(FolderJars.contentJar(dir.resolve("classes"), cache)).contains(Path.of(first.get(0)));
    Files.writeString(classes.resolve("X.class"), "changed");
    Files.setLastModifiedTime(classes.resolve("X.class"), java.nio.file.attribute.FileTime.fromMillis(1_000));
    assertThat(FolderJars.contentJar(dir.resolve("classes"), cache).orElseThrow()).as("a new jar for new content")
        .isNotEqualTo(Path.of(first.get(0)));
    assertThat(WorkerCds.key(spec(first))).as("jars can be archived").isPresent();
  }

  /**
   * Waits for the recording worker to publish the archive. A recording may give up (its JVM's JIT
   * compilers did not fall quiet within 10 s, or a compilation was queued during the dump: seen in
   * 2 of 9 runs on a busy machine, the program right after a build); the next program's worker then
   * records, as in use, so {@code again} runs once more before the archive must be there.
   */
  private void awaitArchive(Callable<String> again) throws Exception {
    if (!archiveWithin(Duration.ofSeconds(30))) {
      System.err.println("WorkerCdsIT: no archive from the first program; a second one records");
      again.call();
      archiveWithin(Duration.ofSeconds(60));
    }
    assertThat(archives()).as("published by the recording worker itself").hasSize(1);
  }

  private boolean archiveWithin(Duration d) throws InterruptedException, IOException {
    long until = System.nanoTime() + d.toNanos();
    while (archives().isEmpty() && System.nanoTime() < until) {
      Thread.sleep(100); // the recording worker publishes it as it exits, after its parent is gone
    }
    return !archives().isEmpty();
  }


  @Test
  void classPathsWithFoldersGetNoArchive() throws IOException {
    Path jar = dir.resolve("a.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest("classes/"))) {
      out.putNextEntry(new JarEntry("x.txt"));
    }
    Files.createDirectories(dir.resolve("classes"));
    Files.writeString(dir.resolve("classes/y.txt"), "y");
    assertThat(WorkerCds.key(spec(List.of(dir.toString())))).isEmpty();
    assertThat(WorkerCds.key(spec(List.of(jar.toString())))).as("a folder in the manifest").isEmpty();
    Path plain = dir.resolve("b.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(plain), new Manifest())) {
      out.putNextEntry(new JarEntry("x.txt"));
    }
    assertThat(WorkerCds.key(spec(List.of(plain.toString())))).isPresent();
    assertThat(WorkerCds.key(new LaunchSpec("java", List.of(plain.toString()), List.of("-Xshare:off"), Map.of())))
        .as("the user manages CDS").isEmpty();
  }

  private static LaunchSpec spec(List<String> cp) {
    return new LaunchSpec("java", cp, List.of(), Map.of());
  }

  /** Runs {@link CdsParentMain} with its own temp folder (so its own archive cache); returns its output. */
  private String run(List<String> cp, String mode) throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-cp", String.join(java.io.File.pathSeparator, cp), CdsParentMain.class.getName(), mode)
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(out).as(out).contains("DONE");
    return out;
  }

  private List<Path> archives() throws IOException {
    return cacheFiles("glob:**.jsa");
  }

  private List<Path> leftovers() throws IOException {
    List<Path> l = new ArrayList<>(cacheFiles("glob:**.lock"));
    l.addAll(cacheFiles("glob:**.tmp"));
    return l;
  }

  private List<Path> cacheFiles(String glob) throws IOException {
    var matcher = dir.getFileSystem().getPathMatcher(glob);
    Path tmp = dir.resolve("tmp");
    if (!Files.isDirectory(tmp)) {
      return List.of();
    }
    // names only, no attributes: a worker's temporary file may vanish between listing and looking
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> caches = Files.newDirectoryStream(tmp, "joblib4j-cds-*")) {
      for (Path cache : caches) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(cache)) {
          files.forEach(f -> {
            if (matcher.matches(f)) {
              found.add(f);
            }
          });
        }
      }
    }
    return found;
  }

  private List<String> jarClasspath() throws IOException {
    return TestClassPaths.jarsWith(dir.resolve("cds-test.jar"), CdsParentMain.class, HotMethods.class);
  }

  private static Manifest manifest(String classPath) {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
    return m;
  }

  @SuppressWarnings("unused")
  private static void ignore(OutputStream o) {}
}
