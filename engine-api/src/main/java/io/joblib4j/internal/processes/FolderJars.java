package io.joblib4j.internal.processes;

import io.joblib4j.internal.LazyLogger;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Folders of classes on the worker class path (an IDE, {@code mvn exec}, {@code target/classes})
 * replaced by jars of their content: the JDK archives classes for class-data sharing only from
 * jars ({@link WorkerCds}), so a folder class path would start every worker without the archive.
 * The jar is cached in the archive cache folder, named for the folder's content (every file's path,
 * size and time) and made once: written to a temporary file and renamed into place. A folder that
 * cannot be read or jarred stays a folder.
 *
 * <p>Reading a folder's content takes a walk over every file: 0.1 to 0.3 s in a fresh JVM for a
 * few thousand classes, more than the archive saves a worker's start. So nothing waits for it: a
 * worker is started with the jar this JVM made last for the folder, or with the folder itself while
 * there is none (the first workers of a fresh JVM); the folder is read in the background, first a
 * little after this JVM first asks (off the first call's path), then at most once a second. A
 * changed folder reaches the workers started after it was read again; a running worker keeps the
 * classes it loaded, as this JVM does.
 */
final class FolderJars {
  private static final LazyLogger LOG = LazyLogger.of(FolderJars.class);

  private static final java.util.Map<Path, Path> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();
  private static final java.util.Map<Path, Long> CHECKED = new java.util.concurrent.ConcurrentHashMap<>();

  private FolderJars() {}

  /** How long after a JVM first asks the folder's first walk waits: off the first call's path. */
  static final long FIRST_WALK_DELAY_MILLIS = 2_000;

  /**
   * {@code entries} with each folder replaced by the jar this JVM last made of it (in {@code
   * cache}); a folder without one yet stays a folder. Never walks a folder itself: the walks run in
   * the background.
   */
  static List<String> jarred(List<String> entries, Path cache) {
    List<String> out = new ArrayList<>(entries.size());
    for (String e : entries) {
      Path p = Path.of(e);
      if (!Files.isDirectory(p)) {
        out.add(e);
        continue;
      }
      Path known = KNOWN.get(p);
      if (known != null && Files.isRegularFile(known)) {
        recheckLater(p, cache, 0);
        out.add(known.toString());
      } else {
        recheckLater(p, cache, FIRST_WALK_DELAY_MILLIS);
        out.add(e);
      }
    }
    return out;
  }

  /** The jar this JVM made last for {@code folder}, or null; for tests. */
  static Path known(Path folder) {
    return KNOWN.get(folder);
  }

  private static void recheckLater(Path folder, Path cache, long delayMillis) {
    long now = System.nanoTime();
    Long last = CHECKED.get(folder);
    if (last != null && now - last < 1_000_000_000L) {
      return; // checked, or scheduled, within the last second
    }
    // a first walk counts as checked until it starts, so that it is scheduled once
    long stamp = now + TimeUnit.MILLISECONDS.toNanos(delayMillis);
    boolean mine = last == null ? CHECKED.putIfAbsent(folder, stamp) == null : CHECKED.replace(folder, last, stamp);
    if (!mine) {
      return; // another call is checking it
    }
    WorkerPools.schedule(() -> {
      java.util.Optional<Path> jar = contentJar(folder, cache);
      CHECKED.put(folder, System.nanoTime()); // just walked (before KNOWN says so): no other look within a second
      jar.ifPresent(j -> KNOWN.put(folder, j));
    }, delayMillis);
  }

  /** The jar of {@code folder}'s content now, made if it is not in {@code cache} yet. */
  static java.util.Optional<Path> contentJar(Path folder, Path cache) {
    try {
      List<Path> files;
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(folder.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
      try (Stream<Path> s = Files.walk(folder)) {
        files = s.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path f : files) {
        BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
        d.update((folder.relativize(f) + ":" + a.size() + ":" + a.lastModifiedTime().toMillis() + "\n")
            .getBytes(StandardCharsets.UTF_8));
      }
      Path jar = cache.resolve("cp-" + HexFormat.of().formatHex(d.digest(), 0, 12) + ".jar");
      if (!Files.isRegularFile(jar)) {
        Path tmp = Files.createTempFile(cache, "cp-", ".jar.tmp");
        try {
          write(folder, files, tmp);
          Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
      return java.util.Optional.of(jar);
    } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
      LOG.get().debug("workers use the folder {} as it is: cannot jar it", folder, e);
      return java.util.Optional.empty();
    }
  }

  private static void write(Path folder, List<Path> files, Path jar) throws IOException {
    try (OutputStream raw = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(raw)) {
      zip.setLevel(1); // written once per content; speed over size
      for (Path f : files) {
        String name = folder.relativize(f).toString().replace('\\', '/');
        ZipEntry entry = new ZipEntry(name);
        entry.setTime(Files.getLastModifiedTime(f).toMillis());
        zip.putNextEntry(entry);
        Files.copy(f, zip);
        zip.closeEntry();
      }
    }
  }
}
