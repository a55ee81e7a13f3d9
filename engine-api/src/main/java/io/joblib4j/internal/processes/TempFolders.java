package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import io.joblib4j.spi.support.OwnerOnlyFolders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the processes backend puts its temporary files, and how it finds those of dead parents.
 *
 * <p>Every folder this JVM creates is named {@code joblib4j-<pid>-<start millis>-<what>}, with the
 * process id and start time of this JVM: a later JVM that finds a folder whose owner is no longer
 * running (killed -9, power cut) deletes it. The start time protects against a recycled pid.
 *
 * <p>The base folder for shared arrays follows joblib: the call's {@code tempFolder}, else {@code
 * JOBLIB4J_TEMP_FOLDER} (environment) or {@code joblib4j.tempFolder} (system property), else {@code
 * /dev/shm} when it has at least 2 GB free, else {@code java.io.tmpdir}.
 */
final class TempFolders {
  private static final LazyLogger LOG = LazyLogger.of(TempFolders.class);
  /** joblib's {@code SYSTEM_SHARED_MEM_FS_MIN_SIZE}. */
  static final long SHM_MIN_FREE = 2_000_000_000L;
  static final Path SHM = Path.of("/dev/shm");
  private static final Pattern OWNED = Pattern.compile("joblib4j-(\\d+)-(\\d+)-.+");
  private static final long PID = ProcessHandle.current().pid();
  private static final long START = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(0L);
  private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();
  private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();
  private static volatile boolean pendingSwept;

  private TempFolders() {}

  /** The name prefix of every folder this JVM owns. */
  static String ownPrefix() {
    return "joblib4j-" + PID + "-" + START + "-";
  }

  /** The base folder for a call's shared arrays. */
  static Path baseFor(Path requested) {
    if (requested != null) {
      return requested;
    }
    String configured = System.getProperty("joblib4j.tempFolder", System.getenv("JOBLIB4J_TEMP_FOLDER"));
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return shmIfLargeEnough(SHM).orElse(Path.of(System.getProperty("java.io.tmpdir")));
  }

  static Optional<Path> shmIfLargeEnough(Path shm) {
    try {
      if (Files.isDirectory(shm) && Files.isWritable(shm) && Files.getFileStore(shm).getUsableSpace() >= SHM_MIN_FREE) {
        return Optional.of(shm);
      }
    } catch (IOException e) {
      LOG.get().debug("cannot inspect {}", shm, e);
    }
    return Optional.empty();
  }

  /** Whether {@code file} lies in a folder some joblib4j JVM made for a call (a temporary copy). */
  static boolean inCallFolder(String file) {
    Path parent = Path.of(file).getParent();
    return parent != null && parent.getFileName() != null
        && OWNED.matcher(parent.getFileName().toString()).matches()
        && parent.getFileName().toString().contains("-call-");
  }

  /** Creates a fresh folder owned by this JVM in {@code base}, readable by this user only. */
  static Path create(Path base, String what) {
    sweepLater(base);
    try {
      Files.createDirectories(base);
      Path dir = base.resolve(ownPrefix() + what);
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectory(dir);
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary folder in " + base
          + " for the processes backend; set tempFolder(...) to a writable folder", e);
    }
  }

  /** Deletes {@code dir} and everything in it; quietly, as cleanup must not hide the real outcome. */
  static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          LOG.get().debug("cannot delete {}", p, e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      LOG.get().warn("cannot delete the temporary folder {}: {}", dir, e.toString());
    }
  }

  /**
   * {@code dir}, a folder of a fixed name that one program leaves for the next, if it is this user's
   * alone ({@link OwnerOnlyFolders}; made so if absent); else empty, with a warning that starts with
   * {@code without} (what is done without it) and says what is wrong and what to do.
   */
  static Optional<Path> ownersOnly(Path dir, String without) {
    try {
      Optional<String> problem = OwnerOnlyFolders.check(dir);
      if (problem.isPresent()) {
        LOG.get().warn("{}: {}", without, problem.get());
        return Optional.empty();
      }
      return Optional.of(dir);
    } catch (IOException | UnsupportedOperationException e) {
      LOG.get().debug("{}: cannot make or read {}", without, dir, e);
      return Optional.empty();
    }
  }

  /**
   * Has {@link #sweepPending} sweep {@code base}; sweeps it now if that has run. Why later: listing a
   * temporary folder and asking after each entry's JVM costs a fresh JVM ~12 ms of CPU, which on two
   * cores a short program's first call would pay; the backend sweeps what is pending a while after
   * its first call starts, and at exit if sooner.
   */
  static void sweepLater(Path base) {
    PENDING.add(base.toAbsolutePath().normalize());
    if (pendingSwept) {
      sweepPending();
    }
  }

  /** Sweeps ({@link #sweepOnce}) every folder {@link #sweepLater} named; from now on they are swept at once. */
  static void sweepPending() {
    pendingSwept = true;
    for (Path base : PENDING) {
      PENDING.remove(base);
      sweepOnce(base);
    }
  }

  /** Deletes, once per base folder and JVM, the folders of joblib4j JVMs that are not running. */
  static void sweepOnce(Path base) {
    if (SWEPT.add(base.toAbsolutePath().normalize())) {
      sweep(base);
    }
  }

  /**
   * Deletes the folders in {@code base} whose owning JVM is gone; returns how many. Only folders
   * this user alone may change ({@link OwnerOnlyFolders#isOwnersOnly}), as this JVM makes them: a
   * name alone proves nothing in a folder every user may write to.
   */
  static int sweep(Path base) {
    if (!Files.isDirectory(base)) {
      return 0;
    }
    int removed = 0;
    // a prefix test, not a glob: the temporary folder may hold thousands of entries, and a glob is a
    // regular expression matched against each, milliseconds of a fresh program's first call
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(base,
        p -> p.getFileName().toString().startsWith("joblib4j-"))) {
      for (Path p : entries) {
        Matcher m = OWNED.matcher(p.getFileName().toString());
        if (m.matches() && !isRunning(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))
            && OwnerOnlyFolders.isOwnersOnly(p)) {
          LOG.get().debug("removing {}, left behind by a joblib4j JVM that is gone", p);
          deleteTree(p);
          removed++;
        }
      }
    } catch (IOException | NumberFormatException e) {
      LOG.get().debug("cannot sweep {}", base, e);
    }
    return removed;
  }

  /** Whether the process {@code pid} started at {@code startMillis} still runs (±1 s: clocks are coarse). */
  static boolean isRunning(long pid, long startMillis) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (h.isEmpty() || !h.get().isAlive()) {
      return false;
    }
    Optional<Instant> started = h.get().info().startInstant();
    return started.isEmpty() || startMillis == 0 || Math.abs(started.get().toEpochMilli() - startMillis) <= 1000;
  }
}
