package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.spi.support.OwnerOnlyFolders;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A class-data-sharing archive of the worker's classes, so that worker JVMs start with their
 * classes already parsed and verified: about a fifth less CPU to a worker's first result, and the
 * first call of a {@code Parallel} waits for worker starts.
 *
 * <p>One worker per launch spec and machine records the archive once it is warm: started with
 * {@code -XX:+RecordDynamicDumpInfo} (JDK 17+), it dumps its loaded classes ({@code VM.cds
 * dynamic_dump}) after its first batch, into a temporary file it then renames into place itself
 * ({@link CdsRecorder}), so that the archive does not depend on the parent living on: a short
 * program (a spark-submit driver, a command line tool) that makes one call and exits leaves an
 * archive for the next run. Later workers use it ({@code -XX:SharedArchiveFile}). A recording left
 * behind by a JVM that is gone is adopted by the next JVM once a trial start with {@code
 * -Xshare:on} proves it valid; temporary files older than a few minutes are swept, and archives and
 * class folders' jars older than a week but the newest few ({@link #sweep}). Archives live
 * in {@code <java.io.tmpdir>/joblib4j-cds-<user>}, a folder this user alone may enter ({@link
 * OwnerOnlyFolders}; refused otherwise, and workers start without an archive), keyed by the JDK, the
 * class path (each jar's size and time) and the JVM options ({@link SettingsDigest}).
 *
 * <p>The JDK can only archive class paths of jar files, so folders on the class path (an IDE, a
 * test run from target/classes) reach workers as jars of their content ({@link #jarFolders}) once
 * those are made, in the background. {@code -Djoblib4j.processes.cds=false}, or any CDS option of
 * the user's, turns this off.
 */
final class WorkerCds {
  private static final LazyLogger LOG = LazyLogger.of(WorkerCds.class);
  private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
  private static final Duration STALE = Duration.ofMinutes(10);
  /** Archives and class folders' jars kept whatever their age: the newest of each kind. */
  static final int KEEP_NEWEST = 8;
  /**
   * Older ones go once this old, counted from when they were made: every new jar build and every
   * recompiled class folder makes new ones, and nothing else would ever delete the old. (Use cannot
   * be marked on them: the JDK checks a jar's time before it trusts an archive of it.)
   */
  static final Duration KEEP_UNTIL = Duration.ofDays(7);
  private static final Map<LaunchSpec, Optional<String>> KEYS = new ConcurrentHashMap<>();
  private static final Set<String> ADOPTING = ConcurrentHashMap.newKeySet();
  /** The recording worker's environment: where to dump, where to publish, which lock to drop. */
  static final List<String> VARIABLES = List.of(CdsRecorder.RECORDING_VARIABLE, CdsRecorder.ARCHIVE_VARIABLE,
      CdsRecorder.LOCK_VARIABLE);
  private static volatile boolean swept;

  /**
   * What one worker does about the archive.
   *
   * @param options the JVM options to add
   * @param recording the file the worker records into, or null
   * @param archive the archive to publish the recording as, or null
   * @param lock the lock that says a recording is under way, or null
   */
  record Plan(List<String> options, Path recording, Path archive, Path lock) {
    static final Plan NONE = new Plan(List.of(), null, null, null);

    boolean records() {
      return recording != null;
    }

    /** The recording worker's environment ({@link CdsRecorder}); empty for others. */
    Map<String, String> environment() {
      return records() ? Map.of(CdsRecorder.RECORDING_VARIABLE, recording.toString(), CdsRecorder.ARCHIVE_VARIABLE,
          archive.toString(), CdsRecorder.LOCK_VARIABLE, lock.toString()) : Map.of();
    }
  }

  private static volatile Optional<Path> cacheDir;

  private WorkerCds() {}

  static Plan plan(LaunchSpec spec, long serial) {
    Optional<String> key = KEYS.computeIfAbsent(spec, WorkerCds::key);
    if (key.isEmpty()) {
      return Plan.NONE;
    }
    try {
      Path dir = cacheDir();
      sweepOnce(dir);
      Path archive = dir.resolve(key.get() + ".jsa");
      if (Files.isRegularFile(archive)) {
        return new Plan(concat(List.of("-XX:SharedArchiveFile=" + archive), QUIET), null, null, null);
      }
      Path lock = dir.resolve(key.get() + ".lock");
      if (!claim(lock, spec, archive)) {
        return Plan.NONE;
      }
      Path recording = dir.resolve(key.get() + "-" + ProcessHandle.current().pid() + "-" + serial + ".tmp");
      return new Plan(concat(List.of("-XX:+RecordDynamicDumpInfo"), QUIET), recording, archive, lock);
    } catch (IOException | RuntimeException e) {
      LOG.get().debug("no class-data-sharing archive for workers", e);
      return Plan.NONE;
    }
  }

  /** The recording worker started: its pid goes into the lock, so that others know when it is gone. */
  static void started(Plan plan, long pid) {
    if (plan.records()) {
      try {
        Files.writeString(plan.lock(), pid + "\n" + plan.recording().getFileName());
      } catch (IOException e) {
        LOG.get().debug("cannot write {}", plan.lock(), e);
      }
    }
  }

  /**
   * The recording worker exited: what it did not publish (it died dumping, or before its first
   * batch) goes, and so does the lock, so that another worker may record.
   */
  static void exited(Plan plan, int exitCode) {
    if (plan.records()) {
      deleteQuietly(plan.recording());
      deleteQuietly(plan.lock());
    }
  }

  /** {@link #sweep}, once per JVM. */
  private static void sweepOnce(Path dir) {
    if (!swept) {
      swept = true;
      sweep(dir, System.currentTimeMillis());
    }
  }

  /**
   * Deletes what no worker will start from: temporary recordings and jars older than any takes to
   * make ({@link #STALE}), and archives and class folders' jars older than {@link #KEEP_UNTIL} but
   * the {@link #KEEP_NEWEST} newest of each kind (the one a running program uses is among those;
   * one deleted all the same is made again, as a folder that changed would be).
   */
  static void sweep(Path dir, long nowMillis) {
    deleteOlder(dir, "w-*.tmp", nowMillis - STALE.toMillis(), 0);
    deleteOlder(dir, "cp-*.jar.tmp", nowMillis - STALE.toMillis(), 0);
    deleteOlder(dir, "w-*.jsa", nowMillis - KEEP_UNTIL.toMillis(), KEEP_NEWEST);
    deleteOlder(dir, "cp-*.jar", nowMillis - KEEP_UNTIL.toMillis(), KEEP_NEWEST);
  }

  /** Deletes the files of {@code glob} in {@code dir} last modified before {@code beforeMillis}, but the {@code keep} newest. */
  private static void deleteOlder(Path dir, String glob, long beforeMillis, int keep) {
    Map<Path, Long> made = new java.util.HashMap<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, glob)) {
      for (Path p : s) {
        try {
          made.put(p, Files.getLastModifiedTime(p).toMillis());
        } catch (IOException e) {
          // deleted meanwhile
        }
      }
    } catch (IOException e) {
      LOG.get().debug("cannot sweep {}", dir, e);
      return;
    }
    List<Path> newestFirst = new ArrayList<>(made.keySet());
    newestFirst.sort(java.util.Comparator.comparing(made::get, java.util.Comparator.reverseOrder()));
    for (int i = keep; i < newestFirst.size(); i++) {
      if (made.get(newestFirst.get(i)) < beforeMillis) {
        deleteQuietly(newestFirst.get(i));
      }
    }
  }

  /**
   * Claims the right to record the archive. A lock whose recording worker is gone is settled
   * first: its recording adopted if it proves valid, else deleted.
   */
  private static boolean claim(Path lock, LaunchSpec spec, Path archive) throws IOException {
    try {
      Files.createFile(lock);
      return true;
    } catch (FileAlreadyExistsException e) {
      // someone records, recorded, or died recording
    }
    String[] content = Files.readString(lock, StandardCharsets.UTF_8).split("\n");
    long pid = content.length > 0 && content[0].matches("\\d+") ? Long.parseLong(content[0]) : -1;
    boolean recorderAlive = pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    boolean stale = System.currentTimeMillis() - Files.getLastModifiedTime(lock).toMillis() > STALE.toMillis();
    if (recorderAlive || pid < 0 && !stale) {
      return false; // recording (a worker may live for hours), or about to
    }
    Path recording = content.length > 1 ? lock.resolveSibling(content[1].trim()) : null;
    if (recording != null && Files.isRegularFile(recording) && ADOPTING.add(archive.toString())) {
      // not a daemon: a short program's JVM waits the fraction of a second the trial start takes
      Thread t = new Thread(() -> adopt(spec, recording, archive, lock), "joblib4j-cds-adopt");
      t.setDaemon(false);
      t.start();
    } else {
      deleteQuietly(recording);
      deleteQuietly(lock);
    }
    return false;
  }

  /** Publishes a recording left by a JVM that is gone, if a trial start with it succeeds. */
  private static void adopt(LaunchSpec spec, Path recording, Path archive, Path lock) {
    try {
      List<String> cmd = new ArrayList<>();
      cmd.add(spec.java());
      cmd.addAll(spec.jvmOptions());
      cmd.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + recording, "-cp",
          String.join(File.pathSeparator, spec.classpath()), "-version"));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
        Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
      } else {
        p.destroyForcibly();
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      LOG.get().debug("cannot adopt {}", recording, e);
    } finally {
      deleteQuietly(recording);
      deleteQuietly(lock);
      ADOPTING.remove(archive.toString());
    }
  }

  /**
   * {@code entries} with folders replaced by the jars of their content made so far ({@link
   * FolderJars}, which makes them in the background), so that workers on a folder class path get an
   * archive too; unchanged when this is turned off.
   */
  static List<String> jarFolders(List<String> entries) {
    if (disabled() || entries.stream().noneMatch(e -> Files.isDirectory(Path.of(e)))) {
      return entries;
    }
    try {
      return FolderJars.jarred(entries, cacheDir());
    } catch (IOException | RuntimeException e) {
      LOG.get().debug("workers use the class path's folders as they are", e);
      return entries;
    }
  }

  private static boolean disabled() {
    return "false".equalsIgnoreCase(System.getProperty("joblib4j.processes.cds"));
  }

  /** The archive's name for {@code spec}, or empty if its workers cannot have one. */
  static Optional<String> key(LaunchSpec spec) {
    if (disabled()) {
      return Optional.empty();
    }
    for (String o : spec.jvmOptions()) {
      if (o.startsWith("-Xshare") || o.contains("SharedArchiveFile") || o.contains("ArchiveClassesAtExit")
          || o.contains("UseSharedSpaces")) {
        return Optional.empty(); // the user manages CDS
      }
    }
    try {
      SettingsDigest d = new SettingsDigest().add(System.getProperty("java.home"))
          .add(System.getProperty("java.vm.version"));
      for (String o : spec.jvmOptions()) {
        d.add(o);
      }
      for (Path jar : allJars(spec.classpath())) {
        d.addJar(jar);
      }
      return Optional.of("w-" + d.hex());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty(); // a folder, or a missing entry, on the class path
    }
  }

  /** Every jar of the class path, following manifest Class-Path entries; throws for anything else. */
  static List<Path> allJars(List<String> classpath) throws IOException {
    List<Path> jars = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    Deque<Path> todo = new ArrayDeque<>();
    classpath.forEach(e -> todo.add(Path.of(e).toAbsolutePath().normalize()));
    while (!todo.isEmpty()) {
      Path p = todo.poll();
      if (!seen.add(p)) {
        continue;
      }
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException(p + " is not a jar"); // folders cannot be archived
      }
      jars.add(p);
      try (JarFile jar = new JarFile(p.toFile())) {
        Manifest m = jar.getManifest();
        String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
        if (cp != null) {
          for (String entry : cp.trim().split("\\s+")) {
            if (!entry.isEmpty()) {
              Path ref = entry.startsWith("file:") ? Path.of(java.net.URI.create(entry)) : p.resolveSibling(entry);
              todo.add(ref.toAbsolutePath().normalize());
            }
          }
        }
      }
    }
    return jars;
  }

  /**
   * This user's folder of archives and class folders' jars, which workers start from: refused
   * (no archive, folders as they are) unless only this user may enter it ({@link OwnerOnlyFolders}).
   */
  private static Path cacheDir() throws IOException {
    Optional<Path> dir = cacheDir;
    if (dir == null) {
      dir = TempFolders.ownersOnly(OwnerOnlyFolders.inTemp("joblib4j-cds-"), "workers start without an archive");
      cacheDir = dir;
    }
    return dir.orElseThrow(() -> new IOException("no folder of this user's alone for archives"));
  }


  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static void deleteQuietly(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        LOG.get().debug("cannot delete {}", p, e);
      }
    }
  }

  /** Archives in the cache folder, for tests. */
  static List<Path> archives() throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(cacheDir(), "*.jsa")) {
      s.forEach(out::add);
    }
    return out;
  }
}
